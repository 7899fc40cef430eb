import { setting } from '../config.ts';
import { keyFromSecret } from './key-secret.ts';
import { type MediaSigner, mediaSigner } from './media-signing.ts';

/**
 * The container's signer of recorded media URLs (shared/playback/media-signing.ts): the media
 * CDN key's private half from the secret MEDIA_KEY_SECRET_ARN names, read on the first request
 * that renders media, and the CloudFront public key's id MEDIA_KEY_PAIR_ID. Functions whose
 * route row needs `media-signer` get both (shared/platform/access.ts).
 */
const privateKey = /* @__PURE__ */ keyFromSecret('MEDIA_KEY_SECRET_ARN');

let signer: { pem: string; sign: MediaSigner } | undefined;

export const loadMediaSigner = async (): Promise<MediaSigner> => {
  const pem = await privateKey();
  if (signer?.pem !== pem)
    signer = { pem, sign: mediaSigner({ keyPairId: setting('MEDIA_KEY_PAIR_ID'), privateKey: pem }) };
  return signer.sign;
};
