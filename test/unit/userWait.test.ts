import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UserWaitClock } from '../../src/core/mcp/clientRequests/userWait';

test("a server's open requests to the user count once, overlapping or not, and only for that server", () => {
  let now = 1000;
  const clock = new UserWaitClock(() => now);
  assert.equal(clock.waitedMs('a'), 0);
  const form = clock.begin('a');
  now += 300;
  assert.equal(clock.waitedMs('a'), 300, 'an open request counts up to now');
  const sampling = clock.begin('a'); // a second request while the first is open
  now += 200;
  form();
  form(); // closing twice changes nothing
  now += 100;
  sampling();
  now += 1000; // nothing open: the clock stands
  assert.equal(clock.waitedMs('a'), 600);
  assert.equal(clock.waitedMs('b'), 0, "another server's calls are not shortened");
});
