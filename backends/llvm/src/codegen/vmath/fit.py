"""Derives the constants of vmath (run: python3 fit.py; needs mpmath).

Each polynomial is a Chebyshev fit (near-minimax) of the named remainder function in 100-digit
arithmetic, its coefficients rounded to f64; the printed error is the max absolute error of the
rounded polynomial (Horner in exact arithmetic) over 4000 points of the interval.
"""
import struct

import mpmath as mp

mp.mp.dps = 100


def fit(name, f0, a, b, deg):
    # The remainder functions are 0/0 at 0: evaluate them just beside it there.
    def f(z):
        return f0(z if z != 0 else mp.mpf(10) ** -40)

    cs, _ = mp.chebyfit(f, [a, b], deg + 1, error=True)
    cs = [float(c) for c in cs][::-1]  # ascending, as f64
    err = 0
    for i in range(1, 4000):
        z = a + (b - a) * mp.mpf(i) / 4000
        p = mp.mpf(0)
        for c in reversed(cs):
            p = p * z + c
        err = max(err, abs(p - f(z)))
    print(f"// {name}: degree {deg}, max abs error {mp.nstr(err, 3)} (2^{mp.nstr(mp.log(err, 2), 4)})")
    print(f"const {name}: [f64; {deg + 1}] = [" + ", ".join(repr(c) for c in cs) + "];")
    return cs


pio4 = mp.pi / 4 + mp.mpf("0.002")
fit("SIN", lambda z: (mp.sin(mp.sqrt(z)) - mp.sqrt(z)) / (z * mp.sqrt(z)), 0, pio4**2, 6)
fit("COS", lambda z: (mp.cos(mp.sqrt(z)) - 1 + z / 2) / (z * z), 0, pio4**2, 5)
fit("TAN", lambda z: (mp.tan(mp.sqrt(z)) - mp.sqrt(z)) / (z * mp.sqrt(z)), 0, pio4**2, 15)
ln2h = mp.log(2) / 2 + mp.mpf("0.002")
fit("EXP", lambda r: (mp.exp(r) - 1 - r) / (r * r), -ln2h, ln2h, 10)
# f32 exp and exp2 (computed in f64, rounded once to f32): exp = 1 + r + r^2 P has relative error
# 2^-37.8 on this interval (2^-32.1 with degree 5 for P).
ln2h32 = mp.log(2) / 2 + mp.mpf("0.0005")
fit("EXP32", lambda r: (mp.exp(r) - 1 - r) / (r * r), -ln2h32, ln2h32, 6)
# The same on AVX-512 (exp32.rs), after a table of 2^(j/16): |r| <= ln2/32 + 0.0001, degree 3
# (relative error 2^-45.6; degree 2 would give 2^-36.5).
ln2h16 = mp.log(2) / 32 + mp.mpf("0.0001")
exp16 = fit("EXP16", lambda r: (mp.exp(r) - 1 - r) / (r * r), -ln2h16, ln2h16, 3)
err16 = 0
for i in range(0, 4001):
    r = -ln2h16 + 2 * ln2h16 * mp.mpf(i) / 4000
    p = mp.mpf(0)
    for c in reversed(exp16):
        p = p * r + c
    err16 = max(err16, abs(1 + r + r * r * p - mp.exp(r)) / mp.exp(r))
print(f"// EXP16: relative error of 1 + r + r^2 P 2^{mp.nstr(mp.log(err16, 2), 4)}")
# Its table: the bits of 2^(j/16) rounded to f64, less j << 48 (exp32.rs adds n << 48, n = 16k + j).
print("EXP16 table:", ", ".join(f"0x{struct.unpack('<Q', struct.pack('<d', float(mp.mpf(2) ** (mp.mpf(j) / 16))))[0] - (j << 48):016x}" for j in range(16)))
smax = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1) + mp.mpf("0.001")
fit("LOG", lambda t: (2 * mp.atanh(mp.sqrt(t)) - 2 * mp.sqrt(t) - mp.mpf(2) / 3 * t * mp.sqrt(t)) / (t * t * mp.sqrt(t)), 0, smax**2, 7)
fit("ATAN", lambda z: (mp.atan(mp.sqrt(z)) - mp.sqrt(z)) / (z * mp.sqrt(z)), 0, (mp.mpf(7) / 16 + mp.mpf("0.01")) ** 2, 11)
fit("TANH", lambda z: (mp.tanh(mp.sqrt(z)) - mp.sqrt(z)) / (z * mp.sqrt(z)), 0, mp.mpf("0.56") ** 2, 11)


def fit32(name, f0, a, b, deg):
    """As fit, the coefficients rounded to f32; the error printed relative to x of x^3 P(x^2)."""
    import struct

    def f(z):
        return f0(z if z != 0 else mp.mpf(10) ** -40)

    cs, _ = mp.chebyfit(f, [a, b], deg + 1, error=True)
    cs = [struct.unpack("f", struct.pack("f", float(c)))[0] for c in cs][::-1]
    err = 0
    for i in range(1, 2000):
        z = a + (b - a) * mp.mpf(i) / 2000
        p = mp.mpf(0)
        for c in reversed(cs):
            p = p * z + c
        err = max(err, abs(p - f(z)) * z)
    print(f"// {name}: degree {deg}, max error relative to x 2^{mp.nstr(mp.log(err, 2), 4)}")
    print(f"const {name}: [f32; {deg + 1}] = [" + ", ".join(repr(c) for c in cs) + "];")


fit32("TANH32", lambda z: (mp.tanh(mp.sqrt(z)) - mp.sqrt(z)) / (z * mp.sqrt(z)), 0, mp.mpf("0.5625") ** 2, 5)

# pi/2 in four parts for f32 code (trig32.rs): P1 the f32 rounding, P2 and P3 of 11 bits (so
# that k P2 and k P3 are exact for k < 2^12), P4 the f32 rounding of the rest.
def f32(v):
    import struct

    return struct.unpack("f", struct.pack("f", float(v)))[0]


def trunc(v, bits):
    e = mp.floor(mp.log(abs(v), 2))
    s = mp.mpf(2) ** (bits - 1 - e)
    return mp.floor(v * s) / s if v > 0 else -mp.floor(-v * s) / s


q1 = mp.mpf(f32(mp.pi / 2))
q2 = trunc(mp.pi / 2 - q1, 11)
q3 = trunc(mp.pi / 2 - q1 - q2, 11)
q4 = mp.mpf(f32(mp.pi / 2 - q1 - q2 - q3))
print("PIO2 f32 parts:", repr(float(q1)), repr(float(q2)), repr(float(q3)), repr(float(q4)), "rest", mp.nstr(mp.pi / 2 - q1 - q2 - q3 - q4, 3))

# Constants split for exact products, and the bits of 2/pi.
def split(v, bits):
    """v's leading `bits` significant bits (an f64), and the rest rounded to an f64."""
    e = mp.floor(mp.log(abs(v), 2))
    hi = mp.floor(v * mp.mpf(2) ** (bits - 1 - e)) / mp.mpf(2) ** (bits - 1 - e)
    return float(hi), float(v - hi)


pio2 = mp.pi / 2
p1 = mp.mpf(float(pio2))
p2 = mp.mpf(float(pio2 - p1))
p3 = mp.mpf(float(pio2 - p1 - p2))
print("PIO2 parts:", repr(float(p1)), repr(float(p2)), repr(float(p3)), "rest", mp.nstr(pio2 - p1 - p2 - p3, 3))
print("LN2 32-bit hi, lo:", split(mp.log(2), 32))
print("LN2 hi, lo:", float(mp.log(2)), float(mp.log(2) - mp.mpf(float(mp.log(2)))))
print("INVLN2 hi, lo:", float(1 / mp.log(2)), float(1 / mp.log(2) - mp.mpf(float(1 / mp.log(2)))))
print("2/3 hi, lo:", float(mp.mpf(2) / 3), float(mp.mpf(2) / 3 - mp.mpf(float(mp.mpf(2) / 3))))
print("PI hi, lo:", float(mp.pi), float(mp.pi - mp.mpf(float(mp.pi))))
for c in ["0.5", "1", "1.5"]:
    a = mp.atan(mp.mpf(c))
    print(f"atan({c}) hi, lo:", float(a), float(a - mp.mpf(float(a))))
print("PIO2 hi, lo:", float(pio2), float(pio2 - mp.mpf(float(pio2))))
w = int(mp.floor(2 / mp.pi * mp.mpf(2) ** 256))
print("2/pi words:", ", ".join(f"0x{(w >> (32 * (7 - i))) & 0xFFFFFFFF:08X}" for i in range(8)))
