"""A0-A5 of the abstraction ladder with OpenCV and numpy, one process, one thread: the
reference point of `npm run bench -- variants` (bench/variants.ts runs it side by side with
`stimkit variants --only A0,A1,A2,A3,A4,A5 --jobs 1 --no-contact-sheet`).

Usage: /usr/bin/python3 bench/variants_opencv.py --out DIR [--png-level 6] IMAGE...

Does the work of docs/VARIANTS.md for each image and writes the six PNGs:
A0 decode (EXIF orientation applied by cv2.imread), downscale to long side 1024 (Lanczos) when
larger; A1 centre crop 0.6; A2 BT.601 luma in integers; A3 5x5 Gaussian (sigma 1.4) + median
thresholds + Canny, edges black; A4 Otsu; A5 Gaussian low-pass (cutoff 0.05 cycles/pixel) through
numpy's FFT, rounded and clipped. Exits 3 with a message when cv2 is missing.
"""
import os
import sys

try:
    import cv2
    import numpy as np
except ImportError as e:  # pragma: no cover
    sys.stderr.write(f"variants_opencv.py: {e}; install Debian's python3-opencv and run it with /usr/bin/python3\n")
    sys.exit(3)

cv2.setNumThreads(1)


def a0(path, max_side=1024):
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise SystemExit(f"cannot decode {path}")
    rgb = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
    h, w = rgb.shape[:2]
    long = max(h, w)
    if long > max_side:
        if w >= h:
            nw, nh = max_side, max(1, int(np.floor(h * max_side / w + 0.5)))
        else:
            nh, nw = max_side, max(1, int(np.floor(w * max_side / h + 0.5)))
        rgb = cv2.resize(rgb, (nw, nh), interpolation=cv2.INTER_LANCZOS4)
    return rgb


def a1(rgb, f=0.6):
    h, w = rgb.shape[:2]
    cw, ch = max(1, int(np.floor(f * w + 0.5))), max(1, int(np.floor(f * h + 0.5)))
    x0, y0 = (w - cw) // 2, (h - ch) // 2
    return np.ascontiguousarray(rgb[y0:y0 + ch, x0:x0 + cw])


def a2(rgb):
    x = rgb.astype(np.int32)
    return ((299 * x[..., 0] + 587 * x[..., 1] + 114 * x[..., 2] + 500) // 1000).astype(np.uint8)


def a3(grey):
    b = cv2.GaussianBlur(grey, (5, 5), 1.4, borderType=cv2.BORDER_REFLECT_101)
    m = float(np.median(b))
    e = cv2.Canny(b, 0.66 * m, 1.33 * m, apertureSize=3, L2gradient=False)
    return np.where(e > 0, 0, 255).astype(np.uint8)


def a4(grey):
    _, out = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return out


def a5(grey, c=0.05):
    h, w = grey.shape
    F = np.fft.fft2(grey.astype(np.float64))
    fy = np.fft.fftfreq(h)[:, None]
    fx = np.fft.fftfreq(w)[None, :]
    H = np.exp(-(fx ** 2 + fy ** 2) / (2 * c * c))
    out = np.real(np.fft.ifft2(F * H))
    return np.clip(np.floor(out + 0.5), 0, 255).astype(np.uint8)


def main(argv):
    out, level, files = None, 6, []
    i = 0
    while i < len(argv):
        if argv[i] == "--out":
            out, i = argv[i + 1], i + 2
        elif argv[i] == "--png-level":
            level, i = int(argv[i + 1]), i + 2
        else:
            files.append(argv[i])
            i += 1
    if not out or not files:
        raise SystemExit("usage: variants_opencv.py --out DIR [--png-level N] IMAGE...")
    params = [cv2.IMWRITE_PNG_COMPRESSION, level]
    for f in files:
        d = os.path.join(out, os.path.splitext(os.path.basename(f))[0])
        os.makedirs(d, exist_ok=True)
        rgb = a0(f)
        grey = a2(rgb)
        bgr = lambda x: cv2.cvtColor(x, cv2.COLOR_RGB2BGR)
        cv2.imwrite(os.path.join(d, "A0-original.png"), bgr(rgb), params)
        cv2.imwrite(os.path.join(d, "A1-crop.png"), bgr(a1(rgb)), params)
        cv2.imwrite(os.path.join(d, "A2-grayscale.png"), grey, params)
        cv2.imwrite(os.path.join(d, "A3-edges.png"), a3(grey), params)
        cv2.imwrite(os.path.join(d, "A4-binary.png"), a4(grey), params)
        cv2.imwrite(os.path.join(d, "A5-lowpass.png"), a5(grey), params)


if __name__ == "__main__":
    main(sys.argv[1:])
