/**
 * The settings `npm start` fills in when the developer has not set them. Private and loopback
 * webhook callbacks are NOT among them (issue 33): a platform started on a cloud VM must not post
 * challenges to 169.254.169.254 or the VM's neighbours, so they are allowed only when asked for
 * with `LOCAL_WEBHOOK_CALLBACKS=private` (README "Webhooks", docs/webhooks.md).
 */
export const applyStartSettings = (env: NodeJS.ProcessEnv, ivsPort: number): void => {
  // {cdn_url}: the media CDN stand-in next to the IVS stand-in (scripts/local/media-cdn.ts), so the
  // recordings and the DVR play from npm start (signed where CloudFront would require it).
  env.CDN_URL ??= `http://127.0.0.1:${ivsPort}/cdn`;
};
