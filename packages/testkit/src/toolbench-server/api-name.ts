// How the virtual server reads `api_name` (StableToolBench server/main.py L53, toolbench/utils.py
// L44-70): `change_name(standardize(api_name)).split(f"_for_{tool_name}")[0]`, so a full function
// name (`<api>_for_<tool>`) and the API part alone name the same API.

const NOT_KEPT = /[^\u4e00-\u9fa5^a-zA-Z0-9_]/g;
const RESERVED = new Set(['from', 'class', 'return', 'false', 'true', 'id', 'and']);

/** `standardize` of toolbench/utils.py (a literal `^` is kept, as its character class does). */
function standardize(text: string): string {
  let out = text.replace(NOT_KEPT, '_').replace(/_{2,}/g, '_').toLowerCase();
  out = out.replace(/^_+/, '').replace(/_+$/, '');
  return /^[0-9]/.test(out) ? `get_${out}` : out;
}

/** The API the server looks up for a request's `api_name` and `tool_name`. */
export function serverApiName(apiName: string, toolName: string): string {
  const standardized = standardize(apiName);
  const name = RESERVED.has(standardized) ? `is_${standardized}` : standardized;
  const cut = name.indexOf(`_for_${toolName}`);
  return cut < 0 ? name : name.slice(0, cut);
}
