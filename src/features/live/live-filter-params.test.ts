import { describe, expect, it } from 'vitest';
import { liveFilterOf, MAX_FILTER_TEXT, withLiveFilter } from './live-filter-params';

describe('the live filter in the URL', () => {
  it('round-trips party, template and kinds, keeping other params', () => {
    const params = withLiveFilter(new URLSearchParams('x=1'), {
      party: 'alice::1220',
      template: 'Iou',
      kinds: ['topology', 'transaction'],
    });
    expect(params.toString()).toBe(
      'x=1&party=alice%3A%3A1220&template=Iou&kinds=transactions%2Ctopology',
    );
    expect(liveFilterOf(params)).toEqual({
      party: 'alice::1220',
      template: 'Iou',
      kinds: ['transaction', 'topology'],
    });
  });

  it('leaves out what does not filter, and bounds what is typed', () => {
    expect(
      withLiveFilter(new URLSearchParams('party=a'), {
        kinds: ['transaction', 'reassignment', 'topology'],
      }).toString(),
    ).toBe('');
    expect(liveFilterOf(new URLSearchParams('party=%20&kinds='))).toEqual({ kinds: [] });
    expect(liveFilterOf(new URLSearchParams(`template=${'x'.repeat(1000)}`)).template).toHaveLength(
      MAX_FILTER_TEXT,
    );
    expect(liveFilterOf(new URLSearchParams('kinds=bogus,topology'))).toEqual({
      kinds: ['topology'],
    });
  });
});
