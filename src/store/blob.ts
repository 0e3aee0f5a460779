import { gunzipSync, gzipSync } from "node:zlib";

/**
 * HTML kept in the store is gzip-compressed (result pages shrink 5–8×). gzip rather than brotli:
 * compression is on the harvest path, and anyone can inflate a blob with standard tools.
 */
export function compressHtml(html: string | Uint8Array): Buffer {
  return gzipSync(typeof html === "string" ? Buffer.from(html, "utf8") : html, { level: 6 });
}

export function decompressHtml(blob: Uint8Array): Buffer {
  return gunzipSync(blob);
}
