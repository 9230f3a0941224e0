// A jest environment that runs one test file under the time zone named in its docblock
// (`@jest-environment-options {"timeZone": "Asia/Shanghai"}`). It sets TZ on the real process
// (a test file only sees a copy of process.env, and Node re-reads TZ only when the real one is
// assigned) and restores it afterwards; a worker runs one file at a time, so nothing else sees it.
const { TestEnvironment } = require('jest-environment-node');

class TimeZoneEnvironment extends TestEnvironment {
  constructor(config, context) {
    const timeZone = config.projectConfig.testEnvironmentOptions.timeZone;
    if (!timeZone) throw new Error('tz-environment needs testEnvironmentOptions.timeZone');
    const previous = process.env.TZ;
    process.env.TZ = timeZone; // before super(), which copies process.env into the test's sandbox
    super(config, context);
    this.previous = previous;
  }

  async teardown() {
    if (this.previous === undefined) delete process.env.TZ;
    else process.env.TZ = this.previous;
    await super.teardown();
  }
}

module.exports = TimeZoneEnvironment;
