"""Reference vectors for stimkit's perceptual hash, from an independent implementation.

The hash construction is imagehash.phash (J. Buchner's ImageHash 4.x) applied to a 32x32 grey
array: scipy's DCT-II along axis 0 then axis 1, the top-left 8x8 block (DC included), bit =
coefficient > median of the block, bits row-major, most significant first, as hex. imagehash is
not packaged in Debian 12, so its few lines are restated here on Debian's python3-scipy 1.10.1 and
python3-numpy 1.24.2. Run: /usr/bin/python3 make_phash_vectors.py > phash_vectors.json
"""
import json

import numpy as np
from scipy.fftpack import dct


def phash_hex(pixels):
    d = dct(dct(pixels, axis=0), axis=1)
    low = d[:8, :8]
    bits = low > np.median(low)
    bit_string = ''.join(str(int(b)) for b in bits.flatten())
    return '{:0>16x}'.format(int(bit_string, 2))


rng = np.random.RandomState(20261129)
cases = []
for i in range(8):
    grey = rng.randint(0, 256, size=(32, 32)).astype(float)
    cases.append({'name': f'random-{i}', 'grey': grey.astype(int).flatten().tolist(), 'phash': phash_hex(grey)})
y, x = np.mgrid[0:32, 0:32]
# Structured images whose DCT has many exact zeros are left out: their bits depend on rounding noise.
for name, grey in [
    ('off-centre-disc', np.where((x - 10.7) ** 2 + (y - 19.3) ** 2 < 64, 30, 220) + x * 0.37),
]:
    grey = np.floor(grey).astype(float)
    cases.append({'name': name, 'grey': grey.astype(int).flatten().tolist(), 'phash': phash_hex(grey)})
print(json.dumps({'source': 'make_phash_vectors.py (imagehash.phash construction on scipy 1.10.1)', 'cases': cases}))
