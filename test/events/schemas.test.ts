import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_SCHEMAS_DIR, generateEventSchemas } from '../../scripts/events-schemas.ts';
import { EVENT_TYPE_NAMES } from '../../shared/events/envelope.ts';

describe('the event catalogue JSON Schemas (docs/events/)', () => {
  it('are up to date with the zod schemas (run npm run events:schemas)', () => {
    const generated = generateEventSchemas();
    expect(
      readdirSync(EVENT_SCHEMAS_DIR)
        .filter((name) => name.endsWith('.json'))
        .sort(),
    ).toEqual(Object.keys(generated).sort());
    for (const [name, text] of Object.entries(generated))
      expect(readFileSync(join(EVENT_SCHEMAS_DIR, name), 'utf8'), name).toBe(text);
  });

  it('describe every type, its payload fields required, with the type and version pinned', () => {
    expect(Object.keys(generateEventSchemas())).toEqual(EVENT_TYPE_NAMES.map((type) => `${type}.json`));
    const live = JSON.parse(readFileSync(join(EVENT_SCHEMAS_DIR, 'creator.live.json'), 'utf8'));
    expect(live.required).toEqual(['id', 'type', 'version', 'time', 'creator_id', 'data']);
    expect(live.properties.type.const).toBe('creator.live');
    expect(live.properties.version.const).toBe('1');
    expect(live.properties.data.required).toEqual(
      expect.arrayContaining(['creator_id', 'channel_id', 'stream_id', 'title', 'started_at']),
    );
    const changed = JSON.parse(readFileSync(join(EVENT_SCHEMAS_DIR, 'program.changed.json'), 'utf8'));
    expect(changed.properties.data.required).not.toContain('previous_start');
  });
});
