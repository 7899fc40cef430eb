/**
 * Prints a Google-shaped ID token from the local identity provider, for trying
 * `POST /onboarding/account/google` against `npm start`:
 *   npx tsx scripts/mint-google-token.ts you@example.com ["Your Name"]
 */
import { mintGoogleIdToken } from './local/local-idp.ts';

const [email, name] = process.argv.slice(2);
if (!email) {
  console.error('usage: npx tsx scripts/mint-google-token.ts <email> [name]');
  process.exit(2);
}
console.log(mintGoogleIdToken({ email, name }));
