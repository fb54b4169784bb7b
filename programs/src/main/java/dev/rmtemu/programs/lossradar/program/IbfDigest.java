package dev.rmtemu.programs.lossradar.program;

import java.util.Arrays;

/**
 * An invertible Bloom filter digest: n_cell cells of (xorSum, count), in k
 * partitions of m cells (cell j·m + i is cell i of hash j), so a signature
 * updates one cell per partition. The xorSum is {@code words} 32-bit words, as
 * the stage program keeps it in that many 32-bit register arrays.
 */
public final class IbfDigest {
    private final int hashes;
    private final int perHash;
    private final int words;
    /** xorSum word w of cell c at c·words + w. */
    private final int[] xor;
    private final int[] count;

    public IbfDigest(int hashes, int perHash, int words) {
        this.hashes = hashes;
        this.perHash = perHash;
        this.words = words;
        this.xor = new int[hashes * perHash * words];
        this.count = new int[hashes * perHash];
    }

    public static IbfDigest of(LossRadarConfig c) {
        return new IbfDigest(c.hashes(), c.cellsPerHash(), c.words());
    }

    /** Cell of {@code sig} in partition {@code j}. */
    public int cell(int j, int[] sig) {
        return j * perHash + (int) (SignatureHash.hash(j, sig, words) % perHash);
    }

    /** Adds a packet: xorSum ^= sig and count += 1 in its k cells. No allocation. */
    public void insert(int[] sig) {
        for (int j = 0; j < hashes; j++) {
            int c = cell(j, sig);
            count[c]++;
            int base = c * words;
            for (int w = 0; w < words; w++) {
                xor[base + w] ^= sig[w];
            }
        }
    }

    /** Removes a signature (the inverse of {@link #insert}). */
    public void remove(int[] sig) {
        for (int j = 0; j < hashes; j++) {
            int c = cell(j, sig);
            count[c]--;
            int base = c * words;
            for (int w = 0; w < words; w++) {
                xor[base + w] ^= sig[w];
            }
        }
    }

    /** This digest minus {@code other}, cell by cell (xor, count difference), as a new digest. */
    public IbfDigest minus(IbfDigest other) {
        checkShape(other);
        IbfDigest d = copy();
        for (int i = 0; i < xor.length; i++) {
            d.xor[i] ^= other.xor[i];
        }
        for (int i = 0; i < count.length; i++) {
            d.count[i] -= other.count[i];
        }
        return d;
    }

    /** Adds {@code other} cell by cell (black-box mode: a UM's digests summed across DMs). */
    public void add(IbfDigest other) {
        checkShape(other);
        for (int i = 0; i < xor.length; i++) {
            xor[i] ^= other.xor[i];
        }
        for (int i = 0; i < count.length; i++) {
            count[i] += other.count[i];
        }
    }

    private void checkShape(IbfDigest o) {
        if (o.hashes != hashes || o.perHash != perHash || o.words != words) {
            throw new IllegalArgumentException("digest shapes differ: " + this + " vs " + o);
        }
    }

    /** An empty digest of the same shape as {@code d}. */
    public static IbfDigest of0(IbfDigest d) {
        return new IbfDigest(d.hashes, d.perHash, d.words);
    }

    public IbfDigest copy() {
        IbfDigest d = new IbfDigest(hashes, perHash, words);
        System.arraycopy(xor, 0, d.xor, 0, xor.length);
        System.arraycopy(count, 0, d.count, 0, count.length);
        return d;
    }

    public void clear() {
        Arrays.fill(xor, 0);
        Arrays.fill(count, 0);
    }

    public boolean isEmpty() {
        for (int c : count) {
            if (c != 0) {
                return false;
            }
        }
        for (int x : xor) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    /** Net packets in the digest: the counts of one partition (every packet is in exactly one cell of each). */
    public long packets() {
        long n = 0;
        for (int i = 0; i < perHash; i++) {
            n += count[i];
        }
        return n;
    }

    public int count(int cell) {
        return count[cell];
    }

    public int xorWord(int cell, int w) {
        return xor[cell * words + w];
    }

    /** Sets a cell (the collector fills digests from exported register contents). */
    public void setCell(int cell, int cnt, int[] xorWords) {
        count[cell] = cnt;
        System.arraycopy(xorWords, 0, xor, cell * words, words);
    }

    public void setCount(int cell, int cnt) {
        count[cell] = cnt;
    }

    public void setXorWord(int cell, int w, int v) {
        xor[cell * words + w] = v;
    }

    public int hashes() {
        return hashes;
    }

    public int perHash() {
        return perHash;
    }

    public int cells() {
        return count.length;
    }

    public int words() {
        return words;
    }

    /** Memory of the digest in the switch: per cell a 32-bit count and the xorSum words. */
    public int bytes() {
        return count.length * (words + 1) * Integer.BYTES;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IbfDigest d && d.hashes == hashes && d.perHash == perHash && d.words == words
                && Arrays.equals(d.xor, xor) && Arrays.equals(d.count, count);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(count) + Arrays.hashCode(xor);
    }

    @Override
    public String toString() {
        return "IbfDigest[k=" + hashes + ", m=" + perHash + ", words=" + words + ", packets=" + packets() + "]";
    }
}
