import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';

/**
 * A web player on the local platform's own origin (the IVS stand-in's port; its origin is one the
 * local playback tokens allow, scripts/local/aws.ts): `GET /_local/player?src=<url>` plays
 * `src` with plain hls.js, no configuration (`new Hls()`), as a web app would: a live
 * `stream_url` (IVS playback URL with its token) or a recording's `stream_url`/`dvr_url` (media
 * CDN, signed). It records what played in `window.playback` for the tests.
 */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Local player</title></head>
<body style="margin:0;background:#000"><video id="video" controls muted playsinline style="width:100%;max-height:100vh"></video>
<script src="/_local/hls.min.js"></script>
<script>
  window.playback = { errors: [], startedAt: null, played: 0 };
  const video = document.getElementById('video');
  const src = new URLSearchParams(location.search).get('src');
  const hls = new Hls();
  hls.on(Hls.Events.ERROR, (_, data) => window.playback.errors.push(
    { fatal: data.fatal, type: data.type, details: data.details, code: data.response && data.response.code }));
  video.addEventListener('playing', () => { window.playback.startedAt ??= video.currentTime; });
  video.addEventListener('timeupdate', () => {
    if (window.playback.startedAt !== null) window.playback.played = video.currentTime - window.playback.startedAt;
  });
  hls.loadSource(src);
  hls.attachMedia(video);
  hls.on(Hls.Events.MANIFEST_PARSED, () => video.play());
</script></body></html>`;

let hlsJs: string | undefined;

/** Handles `/_local/player` and its script; false for any other path. */
export const servePlayerPage = (req: IncomingMessage, res: ServerResponse): boolean => {
  const path = new URL(req.url ?? '/', 'http://local').pathname;
  if (path === '/_local/player') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    return true;
  }
  if (path === '/_local/hls.min.js') {
    hlsJs ??= readFileSync(createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js'), 'utf8');
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(hlsJs);
    return true;
  }
  return false;
};
