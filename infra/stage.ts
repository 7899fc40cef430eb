import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

export type StageName = 'dev' | 'prod';

/** What differs between stages; docs/operations.md lists the same table. */
export interface StageSettings {
  /** Lambda and API access logs. */
  logRetention: RetentionDays;
  /** Table, signing key and log groups when removed from the stack. */
  removalPolicy: RemovalPolicy;
  pointInTimeRecovery: boolean;
  /** DynamoDB deletion protection on the table. */
  deletionProtection: boolean;
  /** Stage-wide API Gateway throttling; rows may override per route. */
  throttle: { rate: number; burst: number };
}

export const STAGES: Record<StageName, StageSettings> = {
  dev: {
    logRetention: RetentionDays.ONE_WEEK,
    removalPolicy: RemovalPolicy.DESTROY,
    pointInTimeRecovery: false,
    deletionProtection: false,
    throttle: { rate: 50, burst: 100 },
  },
  prod: {
    logRetention: RetentionDays.THREE_MONTHS,
    removalPolicy: RemovalPolicy.RETAIN,
    pointInTimeRecovery: true,
    deletionProtection: true,
    throttle: { rate: 1000, burst: 2000 },
  },
};

/** Reads the `stage` context value; anything but dev/prod is an error, not a silent default. */
export const stageOf = (value: unknown): StageName => {
  const stage = value ?? 'dev';
  if (stage === 'dev' || stage === 'prod') return stage;
  throw new Error(`Unknown stage ${JSON.stringify(stage)}: use -c stage=dev or -c stage=prod`);
};
