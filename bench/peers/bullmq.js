// BullMQ on the same Redis, driven as sdmq-bench drives sdmq (W1 to W5), printing one JSON line with the same
// fields: producers add delayed jobs (one per call; W2 and W4 1 000 per addBulk call, W4's all due within one
// second; W5 is W1 after `preload` jobs due tomorrow were added to a queue no worker takes), workers with concurrency
// 1 take them, and the lateness of a job is the time its processor starts minus its due time (in its body,
// `seq|due|xxx…`, as sdmq-bench's bodies). W5 also reports the Redis bytes per preloaded job: MEMORY USAGE of every
// key under the prefix, after the preload against before it.
// BullMQ's defaults otherwise; completed jobs are removed, as a queue that runs for long must.
//
//   node bench/peers/bullmq.js --workload W1|W2|W3|W4|W5 [--messages 100000 --producers 4] [--rate 1000
//     --duration 60] [--preload 1000000] [--consumers 4 --inflight 256 --drain 30 --warmup N
//     --redis redis://127.0.0.1:6379 --prefix P --label L --out results.jsonl --mariadb-pid PID --redis-pid PID]
'use strict';
const fs = require('fs');
const { Queue, Worker } = require('bullmq');

const BODY_SIZE = 200;
const args = {};
for (let i = 2; i < process.argv.length; i += 2) {
  args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
}
const opt = (name, otherwise) => (args[name] === undefined ? otherwise : args[name]);
const num = (name, otherwise) => Number(opt(name, otherwise));
const url = new URL(opt('redis', 'redis://127.0.0.1:6379'));
const connection = { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null };
const prefix = opt('prefix', 'sdmqbench-peer');

/** Epoch time in microseconds, at microsecond resolution. */
const micros = () => Math.round((performance.timeOrigin + performance.now()) * 1000);
const uniform = (low, high) => low + Math.floor(Math.random() * (high - low + 1));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const body = (seq, due) => { const head = `${seq}|${due}|`; return head + 'x'.repeat(BODY_SIZE - head.length); };
const cpuTicks = (pid) => {
  if (!pid) return 0;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const percentile = (sorted, q) => (sorted.length ? sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] : 0);
const ms = (us) => Math.round(us / 10) / 100;

/** Runs task(call) for calls 0 .. calls - 1, one call at a time on each of the producers. */
async function eachCall(calls, task) {
  let next = 0;
  await Promise.all(Array.from({ length: num('producers', 4) }, async () => {
    for (let call = next++; call < calls; call = next++) await task(call);
  }));
}

/**
 * One run: push `messages`, `batch` per call (paced at `rate` when given, one per call), consume until every
 * acknowledged one arrived.
 */
async function deliver(workload, messages, batch, rate, dueOf) {
  const name = `${workload}-${Date.now().toString(36)}`;
  const producers = num('producers', 4);
  const consumers = num('consumers', 4);
  const inflightCap = num('inflight', 256);
  const queue = new Queue(name, { connection, prefix });
  const acknowledged = new Uint8Array(messages);
  const deliveries = new Uint32Array(messages);
  const firstReceived = new Float64Array(messages);
  const due = new Float64Array(messages);
  let acknowledgedCount = 0;
  let distinct = 0;
  let early = 0;
  let earlyMax = 0;
  let lastProgress = Date.now();
  const workers = [];
  for (let i = 0; i < consumers; i++) {
    workers.push(new Worker(name, async (job) => {
      const now = micros();
      const text = job.data.b;
      const first = text.indexOf('|');
      const seq = Number(text.slice(0, first));
      const dueMs = Number(text.slice(first + 1, text.indexOf('|', first + 1)));
      if (now < dueMs * 1000) {
        early++;
        earlyMax = Math.max(earlyMax, dueMs * 1000 - now);
      }
      if (deliveries[seq]++ === 0) {
        firstReceived[seq] = now;
        due[seq] = dueMs;
        distinct++;
        lastProgress = Date.now();
      }
    }, { connection, prefix, concurrency: 1, removeOnComplete: { count: 0 }, removeOnFail: { count: 0 } }));
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  await queue.waitUntilReady();
  let latestDue = 0;
  let pushErrors = 0;
  const calls = Math.ceil(messages / batch);
  const callMicros = new Float64Array(calls);
  // call `call` adds the messages from call * batch on: one add, or one addBulk of up to `batch`
  const add = async (call) => {
    const jobs = [];
    for (let seq = call * batch; seq < Math.min(messages, (call + 1) * batch); seq++) {
      const deliverAt = dueOf(Date.now());
      latestDue = Math.max(latestDue, deliverAt);
      jobs.push({ seq, name: 'm', data: { b: body(seq, deliverAt) }, opts: { delay: 0 }, deliverAt });
    }
    const sent = micros();
    try {
      for (const j of jobs) j.opts.delay = Math.max(0, j.deliverAt - Date.now());
      if (batch === 1) {
        await queue.add(jobs[0].name, jobs[0].data, jobs[0].opts);
      } else {
        await queue.addBulk(jobs);
      }
      for (const j of jobs) acknowledged[j.seq] = 1;
      acknowledgedCount += jobs.length;
    } catch (e) {
      pushErrors += jobs.length;
    }
    callMicros[call] = micros() - sent;
  };
  const started = micros();
  if (rate > 0) {
    let inflight = 0;
    const pending = [];
    for (let seq = 0; seq < messages; seq++) {
      const at = started + (seq * 1e6) / rate;
      while (micros() < at) await sleep(Math.max(0, (at - micros()) / 1000 - 0.5));
      while (inflight >= inflightCap) await Promise.race(pending);
      inflight++;
      const p = add(seq).then(() => { inflight--; pending.splice(pending.indexOf(p), 1); });
      pending.push(p);
    }
    await Promise.all(pending);
  } else {
    await eachCall(calls, add);
  }
  const pushSeconds = (micros() - started) / 1e6;
  const pushEnd = Date.now();
  const idleMs = num('drain', 30) * 1000;
  while (distinct < acknowledgedCount) {
    const now = Date.now();
    if (now > latestDue && now - lastProgress > idleMs) break;
    await sleep(20);
  }
  await Promise.all(workers.map((w) => w.close()));
  await queue.obliterate({ force: true });
  await queue.close();
  const lateness = [];
  let lost = 0;
  let duplicates = 0;
  for (let seq = 0; seq < messages; seq++) {
    if (deliveries[seq] > 0) {
      lateness.push(firstReceived[seq] - due[seq] * 1000);
      duplicates += deliveries[seq] - 1;
    } else if (acknowledged[seq]) {
      lost++;
    }
  }
  lateness.sort((a, b) => a - b);
  callMicros.sort();
  const result = {
    workload, label: opt('label', 'bullmq'), peer: 'bullmq', messages,
    [rate > 0 ? 'inflightCap' : 'producers']: rate > 0 ? inflightCap : producers, consumers, perCall: batch,
    pushed: acknowledgedCount, delivered: lateness.length, lost, early, earlyMaxMs: ms(earlyMax), duplicates,
    latenessP50Ms: ms(percentile(lateness, 0.5)), latenessP99Ms: ms(percentile(lateness, 0.99)),
    latenessP999Ms: ms(percentile(lateness, 0.999)), latenessMaxMs: ms(lateness.length ? lateness[lateness.length - 1] : 0),
    pushErrors, pushSeconds: Math.round(pushSeconds * 1000) / 1000,
    pushRate: Math.round(acknowledgedCount / pushSeconds),
    pushCallP50Ms: ms(percentile(callMicros, 0.5)), pushCallP99Ms: ms(percentile(callMicros, 0.99)),
    durationSeconds: Math.round((micros() - started) / 1000) / 1000,
    valid: lost === 0 && pushErrors === 0 && early === 0,
  };
  if (rate > 0) result.targetRate = rate;
  return { result, pushEnd, lastReceived: firstReceived.reduce((a, b) => Math.max(a, b), 0) };
}

/** Bytes Redis reports for every key under the prefix (MEMORY USAGE, every element counted). */
async function prefixBytes(client) {
  let total = 0;
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) {
      const pipeline = client.pipeline();
      for (const key of keys) pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
      for (const [error, bytes] of await pipeline.exec()) if (!error && bytes) total += Number(bytes);
    }
  } while (cursor !== '0');
  return total;
}

/** Adds `count` jobs due tomorrow to a queue no worker takes, 1 000 per addBulk call from the producers. */
async function preload(count) {
  const queue = new Queue(`preload-${Date.now().toString(36)}`, { connection, prefix });
  await queue.waitUntilReady();
  const client = await queue.client;
  const before = await prefixBytes(client);
  let preloaded = 0;
  let preloadErrors = 0;
  const started = micros();
  await eachCall(Math.ceil(count / 1000), async (call) => {
    const jobs = [];
    for (let seq = call * 1000; seq < Math.min(count, (call + 1) * 1000); seq++) {
      const delay = 86400000 + uniform(0, 3600000);
      jobs.push({ name: 'm', data: { b: body(seq, Date.now() + delay) }, opts: { delay } });
    }
    try {
      await queue.addBulk(jobs);
      preloaded += jobs.length;
    } catch (e) {
      preloadErrors += jobs.length;
    }
  });
  const seconds = (micros() - started) / 1e6;
  const after = await prefixBytes(client);
  return {
    queue,
    fields: {
      preloaded, preloadErrors, preloadSeconds: Math.round(seconds * 1000) / 1000,
      preloadRate: Math.round(preloaded / seconds),
      redisBytesPerPending: preloaded === 0 ? null : Math.round((after - before) / preloaded),
    },
  };
}

async function main() {
  const workload = opt('workload', 'W1');
  const warmup = num('warmup', 0);
  if (warmup > 0) await deliver('warmup', warmup, 1, 0, (now) => now + uniform(2000, 10000));
  const pids = { mariadb: num('mariadb-pid', 0), redis: num('redis-pid', 0) };
  const ticks = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuTicks(pid)]));
  const cpu = process.cpuUsage();
  let result;
  if (workload === 'W1') {
    ({ result } = await deliver('W1', num('messages', 100000), 1, 0, (now) => now + uniform(2000, 10000)));
  } else if (workload === 'W2') {
    ({ result } = await deliver('W2', num('messages', 500000), 1000, 0, (now) => now + uniform(2000, 10000)));
  } else if (workload === 'W5') {
    const loaded = await preload(num('preload', 1000000));
    ({ result } = await deliver('W5', num('messages', 100000), 1, 0, (now) => now + uniform(2000, 10000)));
    Object.assign(result, loaded.fields);
    await loaded.queue.obliterate({ force: true });
    await loaded.queue.close();
  } else if (workload === 'W3') {
    const rate = num('rate', 1000);
    ({ result } = await deliver('W3', rate * num('duration', 60), 1, rate, (now) => now + uniform(1000, 5000)));
  } else if (workload === 'W4') {
    // as sdmq-bench: all due within the wall-clock second that starts `lead` seconds from now
    const messages = num('messages', 100000);
    const second = (Math.floor(Date.now() / 1000) + num('lead', 5 + Math.floor(messages / 10000))) * 1000;
    const run = await deliver('W4', messages, 1000, 0, () => second + uniform(0, 999));
    result = run.result;
    result.dueSecondEpochMs = second;
    result.pushedBeforeDueSecond = run.pushEnd < second;
    result.lastDeliveryAfterDueSecondMs = run.lastReceived === 0 ? null
      : Math.floor(run.lastReceived / 1000) - (second + 1000);
  } else {
    throw new Error(`a peer runs W1 to W5, not ${workload}`);
  }
  const used = process.cpuUsage(cpu);
  result.benchCpuSeconds = Math.round((used.user + used.system) / 1000) / 1000;
  for (const [k, pid] of Object.entries(pids)) {
    if (pid) result[`${k}CpuSeconds`] = (cpuTicks(pid) - ticks[k]) / 100;
  }
  const line = JSON.stringify(result);
  if (args.out) fs.appendFileSync(args.out, line + '\n');
  console.log(line);
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
