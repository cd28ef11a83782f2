// Limits for the tests' waits. A test's waits are for conditions (findBy…, waitFor), never
// for a time: these limits only decide how long a test that is going to fail takes to say
// so. The defaults (1 s for a condition, 5 s for a test) are met by a quiet machine but not
// by one running the Go tests, the browser e2e and a build at once on 2 cores, where the first
// test of a file also pays for compiling the components it renders.
import { configure } from '@testing-library/svelte';

configure({ asyncUtilTimeout: 15_000 });
