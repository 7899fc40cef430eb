import { describe, expect, it } from 'vitest';
import { socialPlatforms } from '../../shared/identity/onboarding.ts';

describe('GET /onboarding/social/platforms', () => {
  it('labels each platform as the platform writes its name', () => {
    expect(socialPlatforms().platforms).toEqual([
      { id: 'instagram', label: 'Instagram' },
      { id: 'youtube', label: 'YouTube' },
      { id: 'tiktok', label: 'TikTok' },
      { id: 'x', label: 'X' },
      { id: 'twitch', label: 'Twitch' },
    ]);
  });
});
