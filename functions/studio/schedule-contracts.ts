import type { Contract } from '../../shared/http/contract.ts';

/** The creator studio's profile and channel programs (issue 16): filled in by the next commit. */
export const studioScheduleContracts: readonly Contract[] = [];
