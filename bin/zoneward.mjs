#!/usr/bin/env node
/* global process */
// `zoneward serve`: see `zoneward --help`.
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv.slice(2));
