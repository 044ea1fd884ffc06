const { readTable, column } = await import('./dist/analyze/table.js');
const { buildDesignFromColumns, logit } = await import('./dist/stats/index.js');
const f = '/work/shared/data/vectors/logit_main_21708x298.csv';
const t = readTable(f);
const y = column(t, 'y').map(Number);
const d = buildDesignFromColumns(t.n, (c) => column(t, c), { predictors: ['zh','cn','paradigm'], reference: { paradigm: 'direct' } });
const cl = column(t, 'cluster');
const ts = [];
for (let i = 0; i < 60; i++) { const a = performance.now(); logit(y, d, { cluster: cl }); ts.push(performance.now() - a); }
ts.sort((a,b)=>a-b); console.log('min', ts[0].toFixed(2), 'med', ts[30].toFixed(2));
