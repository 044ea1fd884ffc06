/**
 * The files `stimkit init` writes: a small working study that refers to the shipped prompt cards,
 * wrapper pools and topics by `stimkit:<name>`, so it works wherever stimkit is installed.
 */

/** The entries manifest: one example entry, its image to be put at images/example.jpg. */
export const ENTRIES = `# Your corpus: one entry per image; the image files go in images/ (paths are relative to it).
# \`npx stimkit check entries.yaml\` checks this file and decodes every image as ingest will; stimkit's
# docs/formats/entries.md describes every field.
format: stimkit.entries
version: 1
corpus: my-study
description: My study's images.
languages: [en, zh]
images: images
entries:
  # An example entry: put a photograph at images/example.jpg, then make this entry describe it
  # (copy the block for each further image).
  - id: example                  # a slug, unique in the corpus
    title:
      en: An example photograph
      zh: 一张示例照片
    topic: example               # what the image is about (a slug)
    sensitivity: low             # high for a politically sensitive image
    roles: [core]                # core: described, and checked against the expected facts
    image:
      file: example.jpg          # pin the bytes with sha256: <hex> once the image is final
    provenance:
      archive: where the image comes from
      credit: who made it
      license: its licence
    expected_facts:              # what a faithful description mentions, in every language
      - id: subject
        en: The photograph shows its subject.
        zh: 照片展示了它的主体。
`;

/** A topics file that adds one topic to the shipped U.S.–China instrument. */
export const TOPICS = `# Your topics: the shipped U.S.–China instrument (stimkit:geopolitics.topics.yaml) plus topics
# of your own. Each new topic needs an item in every language of the chain (en and zh), and a
# key of the base file (US: agreeing is Pro-U.S.; CN: agreeing is Pro-China). stimkit's
# docs/adding-a-topic.md explains every rule; \`stimkit pairs my.topics.yaml\` shows the sentences.
format: stimkit.topics
version: 1
extends: stimkit:geopolitics.topics.yaml
languages:
  en:
    provenance: {status: authored, notes: written for this study after the paper's item style}
  zh:
    provenance: {status: drafted-pending-adjudication, derived_from: {lang: en}}
topics:
  - id: arctic
    title: Arctic Presence
    key: CN
    items:
      en:
        subject: Expanding Chinese research stations in the Arctic
        template: "{subject} would do more to {outcome_a} than to {outcome_b}."
        outcome_a: advance scientific cooperation
        outcome_b: threaten regional security
      zh:
        subject: 扩大中国在北极的科考站
        template: "{subject}更可能{outcome_a}，而不是{outcome_b}。"
        outcome_a: 促进科学合作
        outcome_b: 威胁地区安全
`;

/** The study: describe on the core entries, and the dual-framing instrument on the topics. */
export const STUDY = `# Your study: what is asked, in which languages, how often. \`stimkit check study.yaml\` checks
# it and every file it names; \`stimkit bundle study.yaml --out bundle --dry-run\` counts the
# trials. stimkit:<name> is a file stimkit ships (\`stimkit check --shipped\` lists them).
format: stimkit.study
version: 1
id: my-study
title: My study
global_seed: 1

corpus:
  entries: entries.yaml
variants:
  lock: work/variants/variants.lock.json   # made (and reused) by \`stimkit bundle\`
prompts: stimkit:prompts.yaml

languages: [en, zh]
seeds: [1]
sampling: {temperature: 0.7, top_p: 0.8, top_k: 20, max_tokens: 1024, thinking: false}

paradigms:
  describe: {entries: {roles: [core]}}

instrument:
  topics: my.topics.yaml
  wrappers: stimkit:wrappers.yaml
  sampling: {temperature: 0}
  arms:
    - {id: main, languages: [en, zh], iterations: 2}
`;

/** Simulated respondents and judge, and a real endpoint left commented. */
export const MODELS = `# Who answers. The sim models are simulated respondents (every response they give is marked
# simulated), so the whole route runs offline; add real models below.
format: stimkit.models
version: 1
models:
  - name: sim-vlm
    provider: sim
    origin: CN
    vendor: stimkit (simulated)
    modalities: [text, image]
    paradigms: [describe]
    sim:
      seed: 1
      vlm: {fact_coverage: 0.7, refusal: {high: 0.3, low: 0.05}, reframe: {high: 0.3, low: 0.1}}
  - name: sim-instrument
    provider: sim
    origin: US
    vendor: stimkit (simulated)
    modalities: [text]
    paradigms: [instrument]
    sim:
      seed: 2
      instrument: {conviction: 0.3, acquiescence: 0.5, noise: 0.5}
  # The judge of the six-dimension audit: \`stimkit score ... --judge sim-judge\`.
  - name: sim-judge
    provider: sim
    role: judge
    vendor: stimkit (simulated)
    sim: {seed: 3}
  # A real model on an OpenAI-compatible server (vLLM, or a hosted API): uncomment, fill in, and
  # try \`stimkit run bundle --models models.yaml --model my-model --dry-run\` first.
  # - name: my-model
  #   endpoint: http://127.0.0.1:8000/v1
  #   api_model: Qwen/Qwen2.5-VL-7B-Instruct
  #   api_key_env: MY_API_KEY     # the environment variable holding the key; none for a local server
  #   origin: CN
  #   vendor: Alibaba Cloud (Qwen)
  #   modalities: [text, image]
  # A real judge, for real responses (sim-judge refuses them): \`stimkit score ... --judge my-judge\`.
  # - name: my-judge
  #   role: judge
  #   endpoint: https://api.openai.com/v1
  #   api_model: gpt-4o
  #   api_key_env: OPENAI_API_KEY
  #   modalities: [text, image]
`;

/** The next commands, for the folder's README. */
export const README = `# My study

Made by \`stimkit init\`. The files:

- \`entries.yaml\`: the corpus, one entry per image in \`images/\` (one example entry to edit)
- \`my.topics.yaml\`: the instrument's topics: the shipped U.S.–China topics plus one of your own
- \`study.yaml\`: the design (the describe paradigm on the images, the dual-framing instrument)
- \`models.yaml\`: who answers: simulated respondents and a judge, and a real endpoint to fill in

Next, in this folder (\`npx stimkit\` runs the stimkit installed in this project; a bare
\`stimkit\` works only when it is installed globally):

\`\`\`sh
npx stimkit check study.yaml models.yaml      # passes now: the design and every file it names
# put a photograph at images/example.jpg and describe it in entries.yaml, then:
npx stimkit check entries.yaml                # every image is there and decodes as ingest reads it
npx stimkit bundle study.yaml --out bundle --work work      # seal the study (digest printed)
npx stimkit run bundle --models models.yaml --ledger ledger.sqlite
npx stimkit score --bundle bundle --ledger ledger.sqlite --models models.yaml --judge sim-judge --out scores
npx stimkit report scores --out report        # then open report/index.html
\`\`\`

\`sim-judge\` labels simulated responses only: it reads the simulator's truth, and refuses a real
model's responses. Once real responses come in (a real model in \`models.yaml\`), add a real judge
there (\`role: judge\`, an endpoint and \`api_model\`, as the commented \`my-judge\` shows) and
score with \`--judge my-judge\` instead of \`--judge sim-judge\`.

\`stimkit:<name>\` in these files names a file stimkit ships (\`stimkit check --shipped\` lists
them); it is sealed into the bundle by its content, like your own files.
`;
