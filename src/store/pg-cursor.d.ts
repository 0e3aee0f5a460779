// pg-cursor ships no type declarations; the driver describes the part it uses (`Cursor` in postgres-driver.ts).
declare module "pg-cursor" {
  const Cursor: unknown;
  export default Cursor;
}
