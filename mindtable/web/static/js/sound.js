// Short sound cues made with WebAudio (nothing downloaded): off by default, switched on per browser
// (settings.sound). Kinds: "play" (a card or tile goes down), "mistake", "star", "ready", "tick", "go".

import { settings } from "./common.js";

let audio = null;

const CUES = {
  play: [[660, 0, 0.08]],
  ready: [[520, 0, 0.06]],
  tick: [[880, 0, 0.05]],
  go: [[660, 0, 0.08], [990, 0.09, 0.14]],
  star: [[784, 0, 0.1], [988, 0.1, 0.1], [1318, 0.2, 0.18]],
  mistake: [[220, 0, 0.18, "sawtooth"], [165, 0.16, 0.26, "sawtooth"]],
  win: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.1], [1046, 0.3, 0.25]],
};

/** Play a cue if the player switched sound on. Never throws (a browser without WebAudio stays silent). */
export function cue(kind) {
  if (!settings.sound || !CUES[kind]) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    for (const [freq, at, length, wave = "sine"] of CUES[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + length + 0.02);
    }
    window.mindtableSounds = (window.mindtableSounds || 0) + 1; // for tests: how many cues were played
  } catch {
    // no sound
  }
}
