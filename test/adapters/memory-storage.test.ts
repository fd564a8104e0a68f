import { memoryStorage } from '../../src/index.js';
import { runStorageConformance } from '../../src/testing/index.js';

runStorageConformance(() => memoryStorage());
