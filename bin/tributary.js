#!/usr/bin/env node
// The `tributary` command. TypeScript runs natively on Node 24 (type stripping), so the
// CLI loads its source directly.
import '../src/main.ts';
