// @ts-check
// A static file's address. The page's import map (app/web/assets.py) gives every file
// under /static a versioned address that browsers keep for a year; asking the map here
// means catalogues and pictures are cached like the modules. Without a page (the unit
// tests under Node) the plain address stands.

/** The address to fetch or show the file at `path` ("/static/i18n/en.json") by.
 * @param {string} path */
export function assetUrl(path) {
  if (typeof document === "undefined") return path;
  try {
    return import.meta.resolve(path);
  } catch {
    return path; // a browser without import.meta.resolve: the plain address still answers
  }
}
