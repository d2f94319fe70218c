// tar-readers-node.js - node-tar (npm's tar reader) lists each tar named on standard input, one
// JSON line per tar: every entry's type, path and size, and for entries whose data holds the
// fat binary magic, the data written to DIR/nodeN.bin. Used by fuzz-tar-readers.py.
const tar = require(process.argv[2]);
const fs = require('fs');
const readline = require('readline');
const dir = process.argv[3];
const MAGIC = Buffer.from([0x50, 0xed, 0x55, 0xba]);
let n = 0;
readline.createInterface({input: process.stdin}).on('line', tarball => {
  const out = [];
  try {
    tar.t({file: tarball, sync: true, onwarn: () => {}, onReadEntry: e => {
      const bufs = [];
      let len = 0;
      e.on('data', c => { if (len < 64 << 20) bufs.push(c); len += c.length; });
      e.on('end', () => {
        const b = Buffer.concat(bufs);
        const o = {type: e.type, path: e.path, linkpath: e.linkpath || null, size: len};
        if (b.indexOf(MAGIC) >= 0) { o.code = dir + '/node' + (n++) + '.bin'; fs.writeFileSync(o.code, b); }
        out.push(o);
      });
    }});
  } catch (err) { out.push({error: String(err).slice(0, 200)}); }
  process.stdout.write(JSON.stringify(out) + '\n');
});
