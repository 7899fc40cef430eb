import { type AudienceReport, publishAudiences } from '../../shared/live/audience-publisher.ts';

/** Every minute (EventBridge Scheduler, infra/projector.ts): live viewer counts onto the live list. */
export const handler = async (): Promise<AudienceReport> => {
  const report = await publishAudiences(new Date());
  console.log(JSON.stringify({ level: 'INFO', message: 'audiences published', ...report }));
  return report;
};
