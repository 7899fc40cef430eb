/**
 * A setting the stack gives the function in its environment (infra: shared/platform/access.ts
 * derives which). Missing means the function was deployed without it: that is an error to see at
 * once, never a reason to fall back to a local default that would reach the wrong resource.
 */
export const setting = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(
      `Setting ${name} is missing from this function's environment; the stack sets it only for routes whose row needs it (shared/platform/access.ts)`,
    );
  }
  return value;
};
