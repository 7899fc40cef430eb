import { requireStudioCreator } from '../creators/studio-creator.ts';
import { earningMonthsOf, getPayoutAccount, hasMoney } from './payout-repository.ts';
import { applicationFeePercent } from './settings.ts';
import { compareText } from '../compare.ts';

type Amounts = { gross: number; platform_fee: number; net: number };

/** The sum of `rows` in minor units, turned into major units last. */
const majorSum = (rows: readonly Amounts[]): Amounts => {
  const sum = (f: keyof Amounts) => rows.reduce((total, row) => total + row[f], 0) / 100;
  return { gross: sum('gross'), platform_fee: sum('platform_fee'), net: sum('net') };
};

/**
 * `GET /studio/payouts`: capabilities and earnings all time, per currency and per month, from the
 * monthly totals (a few items a year, whatever the number of payments). Summed in minor units,
 * turned into major units last: seven months of 4.99 summed in major units gave
 * 34.93000000000001. A month whose totals are all 0 (a payment refunded within it) is left out,
 * as a month without payments is, and so is a currency with no such month.
 */
export const payoutsOverview = async (accountId: string) => {
  const creator = await requireStudioCreator(accountId);
  const [payouts, stored] = await Promise.all([getPayoutAccount(creator.id), earningMonthsOf(creator.id)]);
  const months = stored
    .filter(hasMoney)
    .sort((a, b) => compareText(b.month, a.month) || compareText(a.currency, b.currency));
  const currencies = [...new Set(months.map((m) => m.currency))].sort(compareText);
  return {
    connected: payouts !== undefined,
    charges_enabled: payouts?.charges_enabled ?? false,
    payouts_enabled: payouts?.payouts_enabled ?? false,
    application_fee_percent: applicationFeePercent(),
    earnings: {
      ...majorSum(months),
      per_currency: currencies.map((currency) => ({
        currency,
        ...majorSum(months.filter((m) => m.currency === currency)),
      })),
      per_month: months.map((m) => ({ month: m.month, currency: m.currency, ...majorSum([m]) })),
    },
  };
};
