// The tests run docket's code under the V8 flags bin/docket.js sets for users (and the build made
// the validators' code cache with, which V8 takes only under the same flags).
import { setV8Flags } from '../src/util/v8-flags.js';

setV8Flags();
