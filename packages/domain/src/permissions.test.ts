import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from './permissions';

describe('PERMISSIONS', () => {
  it('lists ADMIN first', () => expect(PERMISSIONS[0]).toBe('ADMIN'));
});
