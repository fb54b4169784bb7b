package dev.rmtemu.model.hash;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;

import java.util.List;

/**
 * A hash unit placed in one stage: an algorithm over the concatenation of its
 * input fields, each fed as ceil(width/8) big-endian bytes, keeping the low
 * {@code outputBits} bits. Its output bits count against the stage's budget.
 */
public final class HashUnit {
    private final String name;
    private final HashAlgorithm algorithm;
    private final Field[] inputs;
    private final int outputBits;
    private final long outputMask;
    private final Gress gress;
    private final int stage;
    private final int id;
    /** The positional CRC as generated straight-line code for this unit's inputs (null unless a CRC). */
    private final CrcKernel kernel;

    public HashUnit(int id, String name, HashAlgorithm algorithm, List<Field> inputs, int outputBits, Gress gress, int stage) {
        if (outputBits < 1 || outputBits > 64) {
            throw new IllegalArgumentException("hash " + name + ": output bits " + outputBits + " outside 1..64");
        }
        this.id = id;
        this.name = name;
        this.algorithm = algorithm;
        this.inputs = inputs.toArray(new Field[0]);
        this.outputBits = outputBits;
        this.outputMask = outputBits == 64 ? -1L : (1L << outputBits) - 1;
        this.gress = gress;
        this.stage = stage;
        int[] slots = new int[this.inputs.length];
        int[] bytes = new int[this.inputs.length];
        int total = 0;
        for (int i = 0; i < bytes.length; i++) {
            slots[i] = this.inputs[i].slot();
            bytes[i] = (this.inputs[i].width() + 7) / 8;
            total += bytes[i];
        }
        // a CRC as one table lookup per input byte, wired as straight-line code for these inputs
        PositionalCrc positional = algorithm instanceof Crc crc && bytes.length > 0 && total <= PositionalCrc.MAX_BYTES
                ? new PositionalCrc(crc, bytes) : null;
        this.kernel = positional == null ? null : positional.kernel(slots, outputMask);
    }

    /** Computes the hash over the given PHV slot values (no allocation). */
    public long compute(long[] phv) {
        if (kernel != null) {
            return kernel.hash(phv);
        }
        if (algorithm instanceof Crc crc) {
            return crc.overFields(phv, inputs) & outputMask;
        }
        HashAlgorithm a = algorithm;
        long s = a.init();
        for (Field f : inputs) {
            long v = phv[f.slot()];
            for (int shift = ((f.width() + 7) / 8 - 1) * 8; shift >= 0; shift -= 8) {
                s = a.update(s, (int) (v >>> shift) & 0xff);
            }
        }
        return a.finish(s) & outputMask;
    }

    /** The unit's generated CRC code, or null when it is not a CRC (run through {@link #compute}). */
    public CrcKernel kernel() {
        return kernel;
    }

    public String name() {
        return name;
    }

    public HashAlgorithm algorithm() {
        return algorithm;
    }

    public List<Field> inputs() {
        return List.of(inputs);
    }

    public int outputBits() {
        return outputBits;
    }

    public Gress gress() {
        return gress;
    }

    public int stage() {
        return stage;
    }

    public int id() {
        return id;
    }
}
