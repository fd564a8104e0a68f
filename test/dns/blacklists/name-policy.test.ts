import { describe, it } from 'vitest';
import { memoryStorage } from '../../../src/index.js';
import { servicesShareNameRules } from '../../support/shared-name-rules.js';

describe('the name rules a zone create reads, remembered per service', () => {
  it('two services over one memory storage see each other’s TLD and blacklist changes', async () => {
    const storage = memoryStorage();
    await servicesShareNameRules([storage, storage]);
  });
});
