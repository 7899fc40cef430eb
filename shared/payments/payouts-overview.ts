import { requireStudioCreator } from '../creators/studio-creator.ts';
import { earningsOf, getPayoutAccount } from './payout-repository.ts';
import { applicationFeePercent } from './settings.ts';
import { compareText } from '../compare.ts';

/** One month's earnings in one currency (major units in the answer). */
export interface MonthEarnings {
  month: string;
  currency: string;
  gross: number;
  platform_fee: number;
  net: number;
}

/** `GET /studio/payouts`: capabilities and earnings per month and currency (major units). */
export const payoutsOverview = async (accountId: string) => {
  const creator = await requireStudioCreator(accountId);
  const [payouts, earnings] = await Promise.all([getPayoutAccount(creator.id), earningsOf(creator.id)]);
  const months = new Map<string, MonthEarnings>();
  for (const e of earnings) {
    const month = e.paid_at.slice(0, 7);
    const key = `${month}|${e.currency}`;
    const row = months.get(key) ?? { month, currency: e.currency, gross: 0, platform_fee: 0, net: 0 };
    row.gross += e.gross;
    row.platform_fee += e.platform_fee;
    row.net += e.net;
    months.set(key, row);
  }
  const perMonth = [...months.values()]
    .sort((a, b) => compareText(b.month, a.month) || compareText(a.currency, b.currency))
    .map((m) => ({ ...m, gross: m.gross / 100, platform_fee: m.platform_fee / 100, net: m.net / 100 }));
  const sum = (f: 'gross' | 'platform_fee' | 'net') => perMonth.reduce((total, m) => total + m[f], 0);
  return {
    connected: payouts !== undefined,
    charges_enabled: payouts?.charges_enabled ?? false,
    payouts_enabled: payouts?.payouts_enabled ?? false,
    application_fee_percent: applicationFeePercent(),
    earnings: {
      gross: sum('gross'),
      platform_fee: sum('platform_fee'),
      net: sum('net'),
      per_month: perMonth,
    },
  };
};
