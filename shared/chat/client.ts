import { IvschatClient } from '@aws-sdk/client-ivschat';
import { awsClient, perContainer } from '../aws/local-hook.ts';

/**
 * The Amazon IVS Chat control-plane client of a container (created on first use). Locally the
 * SDK reaches the IVS Chat stand-in through its endpoint setting (`AWS_ENDPOINT_URL_IVSCHAT`,
 * which the SDK reads itself), as the SES client does; on AWS the default chain and region apply.
 *
 * Retries: IVS Chat's control plane allows 5 requests a second for room operations, 200 for
 * CreateChatToken and 100 for DeleteMessage/DisconnectUser/SendEvent (docs/chat.md "Quotas");
 * the standard retry mode backs off with jitter on throttling, and past it the caller sees a 503.
 */
export const ivsChatClient = /* @__PURE__ */ perContainer(() =>
  awsClient(new IvschatClient({ maxAttempts: 4, retryMode: 'standard' }), 'ivschat'),
);

/**
 * Where clients open the messaging WebSocket: `IVSCHAT_MESSAGING_ENDPOINT` when set (a URL setting:
 * locally the IVS Chat stand-in's WebSocket, docs/local-ivschat.md), else IVS Chat's regional edge.
 */
export const messagingEndpoint = (): string =>
  process.env.IVSCHAT_MESSAGING_ENDPOINT ??
  `wss://edge.ivschat.${process.env.AWS_REGION ?? 'us-east-1'}.amazonaws.com`;
