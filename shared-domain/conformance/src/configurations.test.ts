import { describe, expect, it } from 'vitest';
import { runConfigurations } from './configurations.ts';

describe('a runtime’s configurations', () => {
  it('without durability modes: naive and hardened, then both at the coarser granularities', () => {
    expect(runConfigurations()).toEqual([
      { variant: 'naive', durability: null },
      { variant: 'hardened', durability: null },
      { variant: 'naive', durability: null, granularity: 'per-requirement' },
      { variant: 'naive', durability: null, granularity: 'coarse' },
      { variant: 'hardened', durability: null, granularity: 'per-requirement' },
      { variant: 'hardened', durability: null, granularity: 'coarse' },
    ]);
  });

  it('naive in each durability mode, the coarser naive runs in the one named, or none at all', () => {
    const modes = runConfigurations({ naive: ['async', 'sync', 'exit'], coarser: 'sync' });
    expect(modes.slice(0, 4).map((c) => c.durability)).toEqual(['async', 'sync', 'exit', null]);
    expect(modes.filter((c) => c.granularity && c.variant === 'naive').map((c) => c.durability)).toEqual([
      'sync',
      'sync',
    ]);
    expect(runConfigurations({ naive: ['async'], coarser: false })).toEqual([
      { variant: 'naive', durability: 'async' },
      { variant: 'hardened', durability: null },
    ]);
  });
});
