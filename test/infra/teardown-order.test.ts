import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { cleanUp, synthStack } from './synth.ts';

afterAll(cleanUp);

type Json = Record<string, any>;

describe('a dev stack tears down once creators have channels (infra/runtime-cleanup.ts)', () => {
  const { parent } = synthStack(routes.slice(0, 1), { stage: 'dev' });
  const resources = parent.toJSON().Resources as Record<string, Json>;
  const [configId] = Object.entries(resources).find(
    ([, r]) => r.Type === 'AWS::IVS::RecordingConfiguration',
  )!;
  const cleanups = Object.entries(resources).filter(([, r]) => r.Type === 'Custom::RuntimeCleanup');
  const [chatLogsId] = Object.entries(resources).find(
    ([, r]) => r.Type === 'AWS::IVSChat::LoggingConfiguration',
  )!;

  it('deletes the run-time channels BEFORE the recording configuration: the cleanup DependsOn it', () => {
    expect(cleanups).toHaveLength(1);
    const [, cleanup] = cleanups[0]!;
    // CloudFormation deletes a resource before those it depends on.
    expect(cleanup.DependsOn).toContain(configId);
    expect(cleanup.Properties.RecordingConfigurationArn).toEqual({ 'Fn::GetAtt': [configId, 'Arn'] });
    expect(cleanup.Properties.Stage).toBe('dev');
    expect(resources[configId]!.DeletionPolicy).toBe('Delete');
    // And the run-time chat rooms before the chat logging configuration they name.
    expect(cleanup.DependsOn).toContain(chatLogsId);
    expect(cleanup.Properties.ChatLoggingConfigurationArn).toEqual({ 'Fn::GetAtt': [chatLogsId, 'Arn'] });
    // Its function keeps its grants until it has run: the role is deleted after it too.
    const fnId = cleanup.Properties.ServiceToken['Fn::GetAtt'][0] as string;
    const roleId = resources[fnId]!.Properties.Role['Fn::GetAtt'][0] as string;
    expect(cleanup.DependsOn).toContain(roleId);
    const statements = (resources[roleId]!.Properties.Policies as Json[]).flatMap(
      (p) => p.PolicyDocument.Statement as Json[],
    );
    const actions = statements.flatMap((s) => [s.Action].flat());
    for (const action of [
      'ivs:ListChannels',
      'ivs:StopStream',
      'ivs:ListStreamKeys',
      'ivs:DeleteStreamKey',
      'ivs:DeleteChannel',
      'ivschat:ListRooms',
      'ivschat:DeleteRoom',
    ])
      expect(actions).toContain(action);
  });

  it('prod retains the recording configuration with the creators’ channels, and has no cleanup', () => {
    const prod = synthStack(routes.slice(0, 1), { stage: 'prod' }).parent.toJSON().Resources as Record<
      string,
      Json
    >;
    expect(Object.values(prod).filter((r) => r.Type === 'Custom::RuntimeCleanup')).toEqual([]);
    const config = Object.values(prod).find((r) => r.Type === 'AWS::IVS::RecordingConfiguration')!;
    expect(config.DeletionPolicy).toBe('Retain');
  });
});
