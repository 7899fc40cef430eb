import { URL, URLSearchParams } from 'node:url';

/**
 * What every Lambda bundle has instead of the `whatwg-url` package (esbuild `alias`,
 * infra/bundling.ts): Node's own WHATWG URL. node-fetch 2 (Apple's verifier fetches OCSP
 * responses with it) imports `whatwg-url` but uses it only where Node has no `url.URL`
 * (`const URL = Url.URL || whatwgUrl.URL`), which every Node the functions run on has; the
 * package and its `tr46` Unicode tables were 281 KB of each Apple bundle, never evaluated.
 */
export { URL, URLSearchParams };
export default { URL, URLSearchParams };
