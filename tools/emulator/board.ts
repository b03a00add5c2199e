// The board's Raspberry Pi Pico, emulated: rp2040js runs the stock MicroPython image with the
// board's reed-switch matrix, WS2812 chain and buttons around it, and a USB cable to the host.
//
//   node --import tsx board.ts --uf2 FIRMWARE.uf2 --bootrom bootrom.ts --flash FLASH.bin
//        --board BOARD.json --serial-fd N [--realtime] [--occupied "7g 7i ..."]
//
// fd N is the master side of a pseudo-terminal: what the firmware writes to its USB CDC port
// comes out there, and what the host writes to the other side reaches the firmware, so
// mpremote and yariboard open the pty's path as they open a real board's port.
// The control channel is stdin (one command a line, docs/emulator.md); reports go to stdout.
// The flash lives in FLASH.bin: every erase and program the firmware makes is written
// through at once, so a power cut at any instruction leaves the file as the chip would be.
import { closeSync, existsSync, openSync, readFileSync, readSync, writeSync } from 'fs';
import { pathToFileURL } from 'url';
import { ConsoleLogger, GPIOPinState, LogLevel, Simulator, USBCDC } from 'rp2040js';

const FLASH_START = 0x10000000;
const FLASH_SIZE = 2 * 1024 * 1024; // the Pico's W25Q16JV
const NS_PER_CYCLE = 8; // clk_sys at 125 MHz
// Datasheet typical times of the W25Q16JV: the CPU waits for them while the chip works.
const PAGE_PROGRAM_NS = 400_000;
const SECTOR_ERASE_NS = 45_000_000;
const BLOCK_ERASE_NS = 150_000_000;
// WS2812: a high pulse longer than this is a 1 bit (T0H 0.4 us, T1H 0.8 us); a low line
// longer than the reset time ends the frame.
const WS2812_ONE_NS = 600;
const WS2812_RESET_NS = 50_000;
// Bootrom breakpoints standing in for the flash chip's program and erase commands.
const BKPT_ERASE = 0x01;
const BKPT_PROGRAM = 0x02;

function option(name: string, fallback?: string): string {
  const at = process.argv.indexOf('--' + name);
  if (at < 0) {
    if (fallback === undefined) throw new Error(`missing --${name}`);
    return fallback;
  }
  return process.argv[at + 1];
}

const uf2Path = option('uf2');
const bootromPath = option('bootrom');
const flashPath = option('flash');
const boardFile = JSON.parse(readFileSync(option('board'), 'utf8'));
const serialFd = Number(option('serial-fd'));
const realtime = process.argv.includes('--realtime');

function report(line: string) {
  process.stdout.write(line + '\n');
}

// ---- the flash image, kept in a file -----------------------------------------------------

function uf2Blocks(data: Buffer): Array<[number, Buffer]> {
  const out: Array<[number, Buffer]> = [];
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const block = data.subarray(off, off + 512);
    if (block.readUInt32LE(0) !== 0x0a324655 || block.readUInt32LE(4) !== 0x9e5d5157) {
      throw new Error(`${uf2Path}: not a UF2 file`);
    }
    const size = block.readUInt32LE(16);
    out.push([block.readUInt32LE(12) - FLASH_START, block.subarray(32, 32 + size)]);
  }
  return out;
}

/** The flash as the chip holds it: the UF2 written over it, as BOOTSEL drag-and-drop does
 * (which leaves the filesystem at the end of the flash alone). */
function loadFlash(): Uint8Array {
  const flash = new Uint8Array(FLASH_SIZE).fill(0xff);
  if (existsSync(flashPath)) flash.set(readFileSync(flashPath).subarray(0, FLASH_SIZE));
  for (const [offset, bytes] of uf2Blocks(readFileSync(uf2Path))) flash.set(bytes, offset);
  const fd = openSync(flashPath, 'w');
  writeSync(fd, flash);
  closeSync(fd);
  return flash;
}

const flashFd = (() => {
  loadFlash();
  return openSync(flashPath, 'r+');
})();

// ---- the board -------------------------------------------------------------------------

const rowPins: number[] = boardFile.row_pins;
const colPins: number[] = boardFile.col_pins;
const rowRanks: string[] = boardFile.row_ranks;
const colFiles: number[] = boardFile.col_files;
const activeLevel = (boardFile.row_active_level ?? 0) === 1;
const ledChain: string[] = boardFile.led_chain;
const buttonPins: Record<string, number> = boardFile.buttons;

const occupied = new Set<string>((option('occupied', '')).split(/\s+/).filter(Boolean));
const pressed = new Set<string>();

type Stats = {
  flashErases: number; flashPrograms: number; flashBytes: number; flashChipNs: number;
  idleNs: number;
};
const stats: Stats = { flashErases: 0, flashPrograms: 0, flashBytes: 0, flashChipNs: 0, idleNs: 0 };

let sim: Simulator;
let cdc: USBCDC;
let connected = false;
let rebootWanted = false;
let boots = 0;
const serialIn: number[] = [];
const serialBuffer = Buffer.alloc(4096);
// LED decoding state
let ledHighSince = -1;
let ledLastFall = -1;
let ledBits: number[] = [];
let ledReport = '';
let ledFrames = 0;
// matrix sampling: when the last sample reached the ring in RAM (its last row taken from the
// PIO's RX FIFO by the DMA), and the board time between two samples
let passStart = -1;
let passChipAt = 0;
let ringWords = 0;
let longestPassNs = 0; // since the power-up
const passNs: number[] = [];
// A stretch longer than this between two samples reaching the ring is reported as `blind`.
const BLIND_REPORT_NS = 10_000_000;
// power cut: at a board time, or during the k-th flash operation from now
let cutAtNs = Infinity;
let cutFlashOps = -1;
let cutFraction = 0;

// Board time across reboots: each power-up gets a fresh chip (and clock), time goes on.
let timeBase = 0;

function now(): number {
  return timeBase + sim.clock.nanos;
}

function patchedBootrom(bootrom: Uint32Array): Uint32Array {
  // The ROM's function table (pointer at 0x14) lists (code, address) half-word pairs; the
  // first instruction of flash_range_erase ('RE') and flash_range_program ('RP') becomes a
  // breakpoint that the emulator serves.
  const rom = new Uint32Array(bootrom);
  const half = new Uint16Array(rom.buffer);
  let entry = half[0x14 / 2] / 2;
  while (half[entry] !== 0) {
    const code = half[entry];
    const address = half[entry + 1] & ~1;
    if (code === 0x4552) half[address / 2] = 0xbe00 | BKPT_ERASE;
    if (code === 0x5052) half[address / 2] = 0xbe00 | BKPT_PROGRAM;
    entry += 2;
  }
  return rom;
}

let bootrom: Uint32Array;

function flashOperation(code: number) {
  const mcu = sim.rp2040;
  const core = mcu.core;
  const r = core.registers;
  const offset = r[0] >>> 0;
  const count = r[1] >>> 0;
  let chipNs: number;
  let apply: (upTo: number) => void;
  if (code === BKPT_ERASE) {
    // as the bootrom does: a block erase where a whole aligned block fits, else 4 KB sectors
    const blockSize = r[2] >>> 0;
    chipNs = 0;
    for (let at = offset; at < offset + count;) {
      const block = blockSize > 4096 && at % blockSize === 0 && offset + count - at >= blockSize;
      chipNs += block ? BLOCK_ERASE_NS : SECTOR_ERASE_NS;
      at += block ? blockSize : 4096;
    }
    stats.flashErases++;
    apply = (upTo) => mcu.flash.fill(0xff, offset, offset + upTo);
    report(`erase ${Math.round(now())} ${Math.round(now() + chipNs)}`);
  } else {
    // flash_range_program(offset, data, count): NOR flash only clears bits
    const data = r[1] >>> 0;
    const length = r[2] >>> 0;
    chipNs = Math.ceil(length / 256) * PAGE_PROGRAM_NS;
    stats.flashPrograms++;
    stats.flashBytes += length;
    apply = (upTo) => {
      for (let i = 0; i < upTo; i++) mcu.flash[offset + i] &= mcu.readUint8(data + i);
    };
    return finish(offset, length, chipNs, apply, false);
  }
  return finish(offset, count, chipNs, apply, true);
}

function finish(offset: number, length: number, chipNs: number, apply: (upTo: number) => void,
  erase: boolean) {
  const core = sim.rp2040.core;
  const start = now();
  let cutAt = Infinity;
  if (cutFlashOps === 0) cutAt = start + Math.floor(chipNs * cutFraction);
  else if (cutFlashOps > 0) cutFlashOps--;
  if (cutAtNs < start + chipNs) cutAt = Math.min(cutAt, Math.max(cutAtNs, start));
  if (cutAt !== Infinity) {
    // the power goes while the chip is busy: only part of the range is done
    const done = Math.floor(length * Math.max(0, cutAt - start) / chipNs);
    apply(done);
    persist(offset, done);
    powerCut(cutAt);
  }
  apply(length);
  persist(offset, length);
  stats.flashChipNs += chipNs;
  // The CPU waits, the PIO and the DMA do not: the chip's time passes in slices, each ending
  // where the hands' next change is due, so the pins change at their board times meanwhile.
  const end = start + chipNs;
  const inside = erase ? takeArmed(stats.flashErases, start) : [];
  for (;;) {
    let stop = waitUntilNs >= 0 ? Math.min(waitUntilNs, end) : end;
    if (inside.length) stop = Math.min(stop, inside[0][0]);
    sim.clock.tick(Math.max(0, stop - now()));
    while (inside.length && inside[0][0] <= now() + 0.5) control(inside.shift()![1]);
    if (now() >= end - 0.5) break;
    runQueue();
  }
  core.PC = core.LR & ~1; // return from the ROM function
}

function persist(offset: number, length: number) {
  if (length > 0) writeSync(flashFd, sim.rp2040.flash, offset, length, offset);
}

function powerCut(atNs: number) {
  report(`cut ${Math.round(atNs)} ${Math.round(atNs / NS_PER_CYCLE)}`);
  closeSync(flashFd);
  process.exit(0);
}

function squareAt(row: number, col: number): string {
  return `${colFiles[col]}${rowRanks[row]}`;
}

function updateColumns() {
  // A driven row connects each closed switch's column to the row's level through its diode;
  // columns with no closed switch on a driven row stay at the level their pull-up gives.
  const mcu = sim.rp2040;
  for (let c = 0; c < colPins.length; c++) {
    let closed = false;
    for (let r = 0; r < rowPins.length && !closed; r++) {
      const state = mcu.gpio[rowPins[r]].value;
      const driven = state === (activeLevel ? GPIOPinState.High : GPIOPinState.Low);
      if (driven && occupied.has(squareAt(r, c))) closed = true;
    }
    mcu.gpio[colPins[c]].setInputValue(closed ? activeLevel : !activeLevel);
  }
}

function updateButtons() {
  for (const name of Object.keys(buttonPins)) {
    sim.rp2040.gpio[buttonPins[name]].setInputValue(!pressed.has(name));
  }
}

function ledEdge(state: GPIOPinState) {
  const t = now();
  if (state === GPIOPinState.High) {
    if (ledLastFall >= 0 && t - ledLastFall > WS2812_RESET_NS) endLedFrame();
    ledHighSince = t;
  } else if (state === GPIOPinState.Low && ledHighSince >= 0) {
    ledBits.push(t - ledHighSince > WS2812_ONE_NS ? 1 : 0);
    ledHighSince = -1;
    ledLastFall = t;
  }
}

function endLedFrame() {
  ledLastFall = -1;
  const bits = ledBits;
  ledBits = [];
  if (bits.length < 24 * ledChain.length) return; // not a whole frame
  const lit: string[] = [];
  for (let i = 0; i < ledChain.length; i++) {
    const byte = (k: number) => {
      let v = 0;
      for (let b = 0; b < 8; b++) v = (v << 1) | bits[i * 24 + k * 8 + b];
      return v;
    };
    const g = byte(0), red = byte(1), blue = byte(2); // WS2812 order: green, red, blue
    if (g || red || blue) {
      lit.push(`${ledChain[i]}:${[red, g, blue].map((v) => v.toString(16).padStart(2, '0')).join('')}`);
    }
  }
  ledFrames++;
  const text = lit.sort().join(' ');
  if (text !== ledReport) {
    ledReport = text;
    report(`leds ${Math.round(now())} ${text}`.trimEnd());
  }
}

/** A word of state machine 0's RX FIFO taken (by the DMA, into the ring): each sample of the
 * matrix is one word a row, row 0 first. */
function ringWord() {
  ringWords++;
  if (ringWords % rowPins.length) return;
  const t = now();
  if (passStart < 0) report(`scanning ${Math.round(t)}`);
  if (passStart >= 0) {
    passNs.push(t - passStart);
    longestPassNs = Math.max(longestPassNs, t - passStart);
    if (passNs.length > 4096) passNs.splice(0, 2048);
    if (t - passStart > BLIND_REPORT_NS) {
      report(`blind ${Math.round(passStart)} ${Math.round(t)} ${Math.round(stats.flashChipNs - passChipAt)}`);
    }
  }
  passStart = t;
  passChipAt = stats.flashChipNs;
}

/** rp2040js steps its PIO from setTimeout, apart from board time; here each enabled state
 * machine steps on the board's clock, once per tick of its divided clock, and waits out an
 * instruction's delay cycles without stepping, so the PIO replays exactly and keeps running
 * through a flash operation. */
function clockPio(mcu: any) {
  for (const pio of mcu.pio) {
    pio.run = () => {};   // (rp2040js's own stepping: never started)
    const stepping = new Set<number>();
    const write = pio.writeUint32.bind(pio);
    pio.writeUint32 = (offset: number, value: number) => {
      write(offset, value);
      for (const machine of pio.machines) {
        if (!machine.enabled || stepping.has(machine.index)) continue;
        stepping.add(machine.index);
        const alarm = sim.clock.createAlarm(() => {
          if (!machine.enabled) { stepping.delete(machine.index); return; }
          const before = machine.cycles;
          machine.step();
          pio.checkChangedPins();
          const divider = (machine.clockDivInt || 65536) + machine.clockDivFrac / 256;
          alarm.schedule(Math.max(1, machine.cycles - before) * divider * NS_PER_CYCLE);
        });
        alarm.schedule(0);
      }
    };
  }
  const machine = mcu.pio[0].machines[0];
  const readFIFO = machine.readFIFO.bind(machine);
  machine.readFIFO = () => { if (!machine.rxFIFO.empty) ringWord(); return readFIFO(); };
  // restarted at its program's start, it samples from the first row again
  const restart = machine.restart.bind(machine);
  machine.restart = () => { ringWords = 0; restart(); };
}

/** CHAN_ABORT reads 1 for each channel whose abort is still under way (the SDK's
 * `dma_channel_abort` and the firmware wait for 0); rp2040js aborts at once but does not
 * serve the read (it answers 0xffffffff, which would be waited on for ever). */
function readChanAbort(mcu: any) {
  const CHAN_ABORT = 0x444;
  const dma = mcu.dma;
  const read = dma.readUint32.bind(dma);
  dma.readUint32 = (offset: number) => (offset === CHAN_ABORT ? 0 : read(offset));
}

/** The RP2040 empties both FIFOs of a state machine whenever its SHIFTCTRL's FJOIN bits
 * change (the datasheet's SHIFTCTRL: "FIFOs are flushed when this bit is changed"), which
 * is how the SDK's `pio_sm_clear_fifos` (called by `pio_sm_init`, so by every
 * `rp2.StateMachine` set-up) empties them; rp2040js (1.4.1) only stores the register, so
 * readings left from an earlier run of the program would go first into the new run's ring
 * and shift its rows. */
function clearFifosOnJoin(mcu: any) {
  const FJOIN = 0xc0000000;
  for (const pio of mcu.pio) {
    for (const machine of pio.machines) {
      const write = machine.writeUint32.bind(machine);
      machine.writeUint32 = (offset: number, value: number) => {
        const joined = machine.shiftCtrl & FJOIN;
        write(offset, value);
        if ((machine.shiftCtrl & FJOIN) === joined) return;
        machine.rxFIFO.reset();
        machine.txFIFO.reset();
        machine.updateDMARx();
        machine.updateDMATx();
      };
    }
  }
}

function boot() {
  boots++;
  if (sim) { timeBase += sim.clock.nanos; sim.stop(); }
  sim = new Simulator();
  const mcu = sim.rp2040;
  mcu.loadBootrom(bootrom);
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  const image = new Uint8Array(FLASH_SIZE);
  // the flash file is the truth: a reboot reads what was written through
  image.set(readFileSync(flashPath).subarray(0, FLASH_SIZE));
  mcu.flash.set(image, 0);
  mcu.onBreak = (code: number) => {
    if (code === BKPT_ERASE || code === BKPT_PROGRAM) flashOperation(code);
    else report(`break ${code}`);
  };
  const watchdog = (mcu as any).peripherals[0x40058];
  watchdog.onWatchdogTrigger = () => { rebootWanted = true; };
  const ppb = mcu.ppb as any;
  const ppbWrite = ppb.writeUint32.bind(ppb);
  ppb.writeUint32 = (offset: number, value: number) => {
    if (offset === 0xd0c && (value >>> 16) === 0x05fa && (value & 4)) rebootWanted = true;
    else ppbWrite(offset, value);
  };
  for (const pin of rowPins) mcu.gpio[pin].addListener((state) => { updateColumns(); });
  clockPio(mcu);
  clearFifosOnJoin(mcu);
  readChanAbort(mcu);
  mcu.gpio[boardFile.led_pin].addListener(ledEdge);
  updateColumns();
  updateButtons();
  connected = false;
  serialIn.length = 0; // bytes sent to a board that resets are lost, as over USB
  cdc = new USBCDC(mcu.usbCtrl);
  cdc.onDeviceConnected = () => { connected = true; report(`usb ${Math.round(now())}`); };
  // The host side answers the firmware's OUT transfer only when it has bytes to send, as a
  // real host controller does (rp2040js's CDC answers at once with nothing, which keeps the
  // chip in a storm of USB interrupts and slows everything else tenfold).
  outRequest = -1;
  mcu.usbCtrl.onEndpointRead = (endpoint: number, size: number) => {
    if (endpoint === (cdc as any).outEndpoint) { outRequest = size; feedSerial(); }
  };
  cdc.onSerialData = (value: Uint8Array) => {
    serialOut.push(Buffer.from(value));
    flushSerial();
  };
  if (process.env.EMULATOR_COUNT_EXCEPTIONS) {
    const core = mcu.core as any;
    const entry = core.exceptionEntry.bind(core);
    core.exceptionEntry = (n: number) => { exceptionCounts[n] = (exceptionCounts[n] ?? 0) + 1; entry(n); };
  }
  mcu.core.PC = 0x10000000;
  passStart = -1;
  ringWords = 0;
  longestPassNs = 0;
  report(`boot ${boots} ${Math.round(now())}`);
}

// ---- the control channel ---------------------------------------------------------------

const queue: string[] = [];
let waitUntilNs = -1;
// `erasing K MS LINE`: LINE to be carried out MS ms into the K-th erase from then (by its
// count since the power-up), as [erase, ns into it, line]
let armed: Array<[number, number, string]> = [];

/** The armed lines of erase number `erase`, which began at `start`, as [board ns, line] in
 * time order; they are disarmed. */
function takeArmed(erase: number, start: number): Array<[number, string]> {
  const due = armed.filter((a) => a[0] === erase).map((a): [number, string] => [start + a[1], a[2]]);
  armed = armed.filter((a) => a[0] !== erase);
  return due.sort((a, b) => a[0] - b[0]);
}

function runQueue() {
  for (;;) {
    if (waitUntilNs >= 0) {
      if (now() < waitUntilNs) return;
      waitUntilNs = -1; // (a trailing `advance` must release the clock too)
    }
    if (!queue.length) return;
    control(queue.shift()!);
  }
}

function control(line: string) {
  const words = line.trim().split(/\s+/);
  const verb = words[0];
  const args = words.slice(1);
  if (verb === '') return;
  else if (verb === 'place') { args.forEach((s) => occupied.add(s)); updateColumns(); }
  else if (verb === 'lift') { args.forEach((s) => occupied.delete(s)); updateColumns(); report(`lifted ${Math.round(now())} ${args.join(' ')}`); }
  else if (verb === 'set') { occupied.clear(); args.forEach((s) => occupied.add(s)); updateColumns(); }
  else if (verb === 'press') { args.forEach((b) => pressed.add(b)); updateButtons(); report(`pressed ${Math.round(now())} ${args.join(' ')}`); }
  else if (verb === 'release') { args.forEach((b) => pressed.delete(b)); updateButtons(); report(`released ${Math.round(now())} ${args.join(' ')}`); }
  else if (verb === 'advance') waitUntilNs = now() + Number(args[0]) * 1e6;
  else if (verb === 'sync') report(`ack ${args[0]} ${Math.round(now())}`);
  else if (verb === 'stats') reportStats(args[0]);
  else if (verb === 'cut') {
    if (args[0] === 'flash') { cutFlashOps = Number(args[1]); cutFraction = Number(args[2] ?? 0.5); }
    else cutAtNs = now() + Number(args[0]) * NS_PER_CYCLE;
  }
  else if (verb === 'erasing') {
    armed.push([stats.flashErases + Number(args[0]), Number(args[1]) * 1e6, args.slice(2).join(' ')]);
  }
  else if (verb === 'disarm') armed = [];
  else if (verb === 'pin') sim.rp2040.gpio[Number(args[0])].setInputValue(args[1] === '1');
  else if (verb === 'reboot') rebootWanted = true;
  else if (verb === 'quit') { closeSync(flashFd); process.exit(0); }
  else report(`error unknown command ${JSON.stringify(line)}`);
}

function reportStats(token: string) {
  const passes = passNs.slice(-256);
  const mean = passes.length ? passes.reduce((a, b) => a + b, 0) / passes.length : 0;
  const max = passes.length ? Math.max(...passes) : 0;
  report(`stats ${token} ns=${Math.round(now())} idle_ns=${Math.round(stats.idleNs)} `
    + `erases=${stats.flashErases} programs=${stats.flashPrograms} program_bytes=${stats.flashBytes} `
    + `chip_ns=${stats.flashChipNs} passes=${passes.length} pass_mean_ns=${Math.round(mean)} `
    + `pass_max_ns=${Math.round(max)} pass_longest_ns=${Math.round(longestPassNs)} led_frames=${ledFrames} boots=${boots}`
    + Object.keys(exceptionCounts).map((n) => ` exc${n}=${exceptionCounts[Number(n)]}`).join(''));
  passNs.length = 0;
}

let pending = '';
process.stdin.on('data', (chunk: Buffer) => {
  pending += chunk.toString('utf8');
  const lines = pending.split('\n');
  pending = lines.pop()!;
  queue.push(...lines);
  if (sim) runQueue(); // (before the first power-up, run() takes the queue when it starts)
});
process.stdin.on('end', () => { closeSync(flashFd); process.exit(0); });

// ---- the serial line from the host ----------------------------------------------------

function pollSerial() {
  // the pty's fd is non-blocking: nothing to read is EAGAIN, no host side open is EIO
  let n = 0;
  try {
    n = readSync(serialFd, serialBuffer, 0, serialBuffer.length, null);
  } catch (error) {
    const code = (error as any).code;
    if (code === 'EAGAIN' || code === 'EIO') return;
    throw error;
  }
  if (connected) for (let i = 0; i < n; i++) serialIn.push(serialBuffer[i]);
}

// What the firmware sent, waiting for room in the pty (its fd is non-blocking: a host that
// does not read stalls the USB port, as on a real board, never the emulated chip).
const serialOut: Buffer[] = [];

function flushSerial() {
  while (serialOut.length) {
    const head = serialOut[0];
    let n = 0;
    try {
      n = writeSync(serialFd, head);
    } catch (error) {
      if ((error as any).code === 'EAGAIN') return;
      throw error;
    }
    if (n < head.length) { serialOut[0] = head.subarray(n); return; }
    serialOut.shift();
  }
}

const exceptionCounts: Record<number, number> = {};
let outRequest = -1; // the size of the firmware's waiting OUT transfer, -1 when none

function feedSerial() {
  flushSerial();
  if (!connected || outRequest < 0 || !serialIn.length) return;
  const bytes = new Uint8Array(serialIn.splice(0, Math.min(outRequest, serialIn.length)));
  outRequest = -1;
  sim.rp2040.usbCtrl.endpointReadDone((cdc as any).outEndpoint, bytes);
}

// ---- running ---------------------------------------------------------------------------

const wallStart = Date.now();
let lastPoll = 0;

function run() {
  const mcu = sim.rp2040;
  const core = mcu.core;
  const clock = sim.clock;
  const sliceEnd = Date.now() + 10;
  while (Date.now() < sliceEnd) {
    let absolute = Math.min(waitUntilNs >= 0 ? waitUntilNs : Infinity, cutAtNs);
    if (realtime) absolute = Math.min(absolute, (Date.now() - wallStart) * 1e6);
    const limit = absolute - timeBase;   // on this power-up's clock
    if (clock.nanos >= limit && absolute === cutAtNs) powerCut(cutAtNs);
    if (clock.nanos >= limit && !realtime) break;
    if (clock.nanos >= limit) { setTimeout(run, 1); runQueue(); return; }
    for (let i = 0; i < 4000; i++) {
      if (core.waiting) {
        // asleep: time jumps to the next timer alarm (or to the limit; with neither, the
        // chip sleeps until the host sends something)
        const alarm = (clock as any).nextAlarm ? (clock as any).nanosToNextAlarm : Infinity;
        const step = Math.min(alarm, limit - clock.nanos);
        if (!isFinite(step)) break;
        clock.tick(Math.max(step, 0));
        stats.idleNs += Math.max(step, 0);
      } else {
        clock.tick(core.executeInstruction() * NS_PER_CYCLE);
      }
      if (clock.nanos >= limit) break;
    }
    if (ledLastFall >= 0 && now() - ledLastFall > WS2812_RESET_NS) endLedFrame();
    if (Date.now() !== lastPoll) { lastPoll = Date.now(); pollSerial(); }
    feedSerial();
    if (rebootWanted) { rebootWanted = false; boot(); return setImmediate(run); }
    if (queue.length) runQueue();
  }
  runQueue();
  setImmediate(run);
}

async function main() {
  const module = await import(pathToFileURL(bootromPath).href);
  bootrom = patchedBootrom(module.bootromB1);
  boot();
  run();
}

main().catch((error) => { console.error(error); process.exit(2); });
