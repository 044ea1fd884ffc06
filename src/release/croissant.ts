/**
 * `croissant.json`: Croissant 1.1 (http://mlcommons.org/croissant/1.1) with the Responsible AI
 * 1.0 vocabulary (http://mlcommons.org/croissant/RAI/1.0), generated from the study, the
 * manifests and release.yaml. The `@context` is the spec's Appendix 1 ("JSON-LD context",
 * docs/croissant-spec-1.1.md of github.com/mlcommons/croissant), copied as it is there except for
 * a trailing comma the appendix has after its last member, which JSON does not allow.
 */
import type { ReleaseMeta } from './meta.js';
import type { ColumnType, Table } from './tables.js';

const CROISSANT_CONFORMS = [
  'http://mlcommons.org/croissant/1.1',
  'http://mlcommons.org/croissant/RAI/1.0',
] as const;

/** Croissant 1.1, Appendix 1: JSON-LD context. */
const CROISSANT_CONTEXT = {
  '@language': 'en',
  '@vocab': 'http://schema.org/',
  sc: 'http://schema.org/',
  cr: 'http://mlcommons.org/croissant/',
  rai: 'http://mlcommons.org/croissant/RAI/',
  dct: 'http://purl.org/dc/terms/',
  annotation: 'cr:annotation',
  arrayShape: 'cr:arrayShape',
  citeAs: 'cr:citeAs',
  column: 'cr:column',
  conformsTo: 'dct:conformsTo',
  containedIn: 'cr:containedIn',
  data: { '@id': 'cr:data', '@type': '@json' },
  dataType: { '@id': 'cr:dataType', '@type': '@vocab' },
  equivalentProperty: 'cr:equivalentProperty',
  examples: { '@id': 'cr:examples', '@type': '@json' },
  excludes: 'cr:excludes',
  extract: 'cr:extract',
  field: 'cr:field',
  fileProperty: 'cr:fileProperty',
  fileObject: 'cr:fileObject',
  fileSet: 'cr:fileSet',
  format: 'cr:format',
  includes: 'cr:includes',
  isArray: 'cr:isArray',
  isLiveDataset: 'cr:isLiveDataset',
  jsonPath: 'cr:jsonPath',
  key: 'cr:key',
  md5: 'cr:md5',
  parentField: 'cr:parentField',
  recordSet: 'cr:recordSet',
  references: 'cr:references',
  regex: 'cr:regex',
  readLines: 'cr:readLines',
  sdVersion: 'cr:sdVersion',
  separator: 'cr:separator',
  source: 'cr:source',
  subField: 'cr:subField',
  transform: 'cr:transform',
  unArchive: 'cr:unArchive',
  value: 'cr:value',
} as const;

const DATA_TYPE: Record<ColumnType, string> = {
  string: 'sc:Text',
  int: 'sc:Integer',
  float: 'sc:Float',
  bool: 'sc:Boolean',
};

/** A file of the release: its path, media type and sha256. */
export interface ReleaseFile {
  file: string;
  encodingFormat: string;
  sha256: string;
}

/** The generated texts of the RAI fields (what the tool knows), beside release.yaml's. */
export interface GeneratedRai {
  collectionType: string;
  rawData: string;
  preprocessing: string;
  annotation: string;
  tools: string[];
}

/** The licence as a URL where it is an SPDX id (the spec recommends one), else as written. */
const licenceRef = (id: string) =>
  /^[A-Za-z0-9.+-]+$/.test(id) && !/^public/i.test(id)
    ? `https://spdx.org/licenses/${id}.html`
    : id;

function recordSet(t: Table) {
  const source = `data/${t.name}.csv`;
  return {
    '@type': 'cr:RecordSet',
    '@id': t.name,
    name: t.name,
    description: t.description,
    key: t.key.map((k) => ({ '@id': `${t.name}/${k}` })),
    field: t.columns.map((c) => ({
      '@type': 'cr:Field',
      '@id': `${t.name}/${c.name}`,
      name: c.name,
      description: c.description,
      dataType: DATA_TYPE[c.type],
      source: { fileObject: { '@id': source }, extract: { column: c.name } },
    })),
  };
}

/** The Croissant document. */
export function croissant(
  meta: ReleaseMeta,
  tables: readonly Table[],
  files: readonly ReleaseFile[],
  imageLicences: readonly string[],
  rai: GeneratedRai,
  shippedImages: number,
): Record<string, unknown> {
  const distribution: unknown[] = files.map((f) => ({
    '@type': 'cr:FileObject',
    '@id': f.file,
    name: f.file,
    contentUrl: f.file,
    encodingFormat: f.encodingFormat,
    sha256: f.sha256,
  }));
  if (shippedImages > 0)
    distribution.push({
      '@type': 'cr:FileSet',
      '@id': 'images',
      name: 'images',
      description:
        'the images whose licences allow redistribution (stimuli.available), named by their sha256',
      encodingFormat: 'image/png',
      includes: 'images/*.png',
    });
  return {
    '@context': CROISSANT_CONTEXT,
    '@type': 'sc:Dataset',
    conformsTo: [...CROISSANT_CONFORMS],
    name: meta.name,
    alternateName: meta.title,
    description: meta.description,
    license: [...new Set([meta.license, ...imageLicences])].map(licenceRef),
    url: meta.url,
    version: meta.version_label,
    datePublished: meta.date_published,
    creator: meta.creators.map((c) => ({
      '@type': `sc:${c.type}`,
      name: c.name,
      ...(c.url === undefined ? {} : { url: c.url }),
      ...(c.affiliation === undefined ? {} : { affiliation: c.affiliation }),
    })),
    citeAs: meta.cite_as,
    keywords: meta.keywords,
    distribution,
    recordSet: tables.map(recordSet),
    'rai:dataCollection': meta.collection,
    'rai:dataCollectionType': rai.collectionType,
    'rai:dataCollectionRawData': rai.rawData,
    'rai:dataPreprocessingProtocol': rai.preprocessing,
    'rai:dataAnnotationProtocol': rai.annotation,
    'rai:machineAnnotationTools': rai.tools,
    'rai:dataLimitations': meta.limitations,
    'rai:dataBiases': meta.biases,
    'rai:dataSocialImpact': meta.social_impact,
    'rai:personalSensitiveInformation': meta.personal_sensitive_information,
    'rai:dataUseCases': meta.use_cases,
    'rai:dataReleaseMaintenancePlan': meta.maintenance,
  };
}
