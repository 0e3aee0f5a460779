/**
 * Where JSON text stops being JSON, as a line and column: `JSON.parse` says "at position N" for some errors
 * and nothing for others (`Unexpected token 'r'…`), so the text is scanned once more, only when it failed.
 */

export interface TextPosition {
  line: number;
  column: number;
}

/** The line and column (1-based) of the first offending character of `text`, or null if it is valid JSON. */
export function jsonErrorPosition(text: string): TextPosition | null {
  const at = firstJsonError(text);
  return at === null ? null : positionOf(text, at);
}

/** Line and column (1-based) of character offset `at`. */
export function positionOf(text: string, at: number): TextPosition {
  let line = 1;
  let start = 0;
  for (let i = 0; i < at && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: at - start + 1 };
}

class Stop {
  constructor(readonly at: number) {}
}

/** Offset of the first character at which `text` is not JSON, or null. */
function firstJsonError(text: string): number | null {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (): never => {
    throw new Stop(i);
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const expect = (c: string) => (text[i] === c ? i++ : fail());
  const literal = (word: string) => {
    for (const c of word) expect(c);
  };
  const string = () => {
    expect('"');
    for (;;) {
      if (i >= text.length) fail();
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c.charCodeAt(0) < 0x20) fail();
      if (c === "\\") {
        i++;
        if (text[i] === "u") {
          i++;
          for (let k = 0; k < 4; k++) /[0-9a-f]/i.test(text[i] ?? "") ? i++ : fail();
          continue;
        }
        if (!'"\\/bfnrt'.includes(text[i] ?? "x")) fail();
      }
      i++;
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === "" || m[0] === "-") fail();
    i += m![0].length;
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{") {
      i++;
      space();
      if (text[i] === "}") return void i++;
      for (;;) {
        space();
        string();
        space();
        expect(":");
        value();
        space();
        if (text[i] === ",") i++;
        else return void expect("}");
      }
    }
    if (c === "[") {
      i++;
      space();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === ",") i++;
        else return void expect("]");
      }
    }
    if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else number();
  };
  try {
    value();
    space();
    return i < text.length ? i : null;
  } catch (err) {
    if (err instanceof Stop) return err.at;
    throw err;
  }
}
