import { requireStudioCreator } from '../creators/studio-creator.ts';
import { earningMonthsOf, getPayoutAccount } from './payout-repository.ts';
import { applicationFeePercent } from './settings.ts';
import { compareText } from '../compare.ts';

/**
 * `GET /studio/payouts`: capabilities and earnings per month and currency, from the monthly totals
 * (a few items a year, whatever the number of payments). Summed in minor units, turned into major
 * units last: seven months of 4.99 summed in major units gave 34.93000000000001. A month whose
 * totals are all 0 (a payment refunded within it) is left out, as a month without payments is.
 */
export const payoutsOverview = async (accountId: string) => {
  const creator = await requireStudioCreator(accountId);
  const [payouts, months] = await Promise.all([getPayoutAccount(creator.id), earningMonthsOf(creator.id)]);
  const sum = (f: 'gross' | 'platform_fee' | 'net') => months.reduce((total, m) => total + m[f], 0);
  const major = (minor: number) => minor / 100;
  return {
    connected: payouts !== undefined,
    charges_enabled: payouts?.charges_enabled ?? false,
    payouts_enabled: payouts?.payouts_enabled ?? false,
    application_fee_percent: applicationFeePercent(),
    earnings: {
      gross: major(sum('gross')),
      platform_fee: major(sum('platform_fee')),
      net: major(sum('net')),
      per_month: months
        .filter((m) => m.gross !== 0 || m.platform_fee !== 0 || m.net !== 0)
        .sort((a, b) => compareText(b.month, a.month) || compareText(a.currency, b.currency))
        .map((m) => ({
          month: m.month,
          currency: m.currency,
          gross: major(m.gross),
          platform_fee: major(m.platform_fee),
          net: major(m.net),
        })),
    },
  };
};
