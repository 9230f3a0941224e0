/**
 * @jest-environment ./test/helpers/tz-environment.js
 * @jest-environment-options {"timeZone": "Asia/Shanghai"}
 */
import { timeZoneSuite } from './helpers/time-zone-suite';

// The usual setting on Chinese cloud images: stored times were 8 hours late here.
timeZoneSuite('Asia/Shanghai', -480);
