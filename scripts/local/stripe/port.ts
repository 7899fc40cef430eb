/**
 * The Stripe stand-in's port for `npm start` and `npm run pay`: STRIPE_PORT, else the API's
 * PORT (default 3000) plus two (the IVS stand-in has plus one).
 */
export const stripePortOf = (env: NodeJS.ProcessEnv): number =>
  Number(env.STRIPE_PORT ?? Number(env.PORT ?? 3000) + 2);
