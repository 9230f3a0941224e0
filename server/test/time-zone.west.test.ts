/**
 * @jest-environment ./test/helpers/tz-environment.js
 * @jest-environment-options {"timeZone": "America/Los_Angeles"}
 */
import { timeZoneSuite } from './helpers/time-zone-suite';

// A negative offset: orders were stored as already expired and nothing could be paid.
timeZoneSuite('America/Los_Angeles', 480);
