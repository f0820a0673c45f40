// Preloaded (`node --require`) by a test into a real run of bin/docket.js: says, at exit, whether
// V8 took each code cache the run handed it (the precompiled validators').
const vm = require('node:vm');
const { syncBuiltinESMExports } = require('node:module');

const Original = vm.Script;
const handed = [];
vm.Script = class extends Original {
  constructor(code, options) {
    super(code, options);
    if (options && options.cachedData) handed.push({ file: options.filename, rejected: this.cachedDataRejected });
  }
};
// So that `import { Script } from 'node:vm'` in docket's modules gets this one too.
syncBuiltinESMExports();
process.on('exit', () => process.stderr.write(`CODE-CACHE ${JSON.stringify(handed)}\n`));
