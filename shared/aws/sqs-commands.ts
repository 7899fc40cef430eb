/**
 * The names of the SQS client that shared/aws/sqs.ts loads (lazily): re-exported by name, so a
 * bundle keeps these and not the package's every command, error and enum (as
 * shared/aws/kms-commands.ts).
 */
export { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
