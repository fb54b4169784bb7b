package dev.rmtemu.model.hash;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;

import java.util.Arrays;
import java.util.List;

/**
 * A hash unit placed in one stage: an algorithm over the concatenation of its
 * input fields, each fed as ceil(width/8) big-endian bytes, keeping the low
 * {@code outputBits} bits. Its output bits count against the stage's budget.
 *
 * <p>Symmetric pairs (TNA's {@code @symmetric("a", "b")} on a Hash): the hash must not change
 * when the two fields of a pair swap values. bf-p4c builds the hash matrix so that each field
 * of a pair has the XOR of both fields' rows (bf-utils dynamic_hash.c, update_symmetric_bits),
 * which is the hash of the inputs with each field of a pair replaced by {@code a ^ b}: that is
 * what this unit computes.
 */
public final class HashUnit {
    private final String name;
    private final HashAlgorithm algorithm;
    private final Field[] inputs;
    /** Per input, the index of its symmetric partner, or -1; null when the unit has no pair. */
    private final int[] partners;
    private final int outputBits;
    private final long outputMask;
    private final Gress gress;
    private final int stage;
    private final int id;
    /** The positional CRC as generated straight-line code for this unit's inputs (null unless a CRC). */
    private final CrcKernel kernel;

    public HashUnit(int id, String name, HashAlgorithm algorithm, List<Field> inputs, int outputBits, Gress gress, int stage) {
        this(id, name, algorithm, inputs, outputBits, gress, stage, null);
    }

    /**
     * A unit whose input i hashes as {@code inputs[i] ^ inputs[partners[i]]} when
     * {@code partners[i] >= 0} (a symmetric pair: partners of each other, of one width).
     */
    public HashUnit(int id, String name, HashAlgorithm algorithm, List<Field> inputs, int outputBits, Gress gress, int stage,
            int[] partners) {
        if (outputBits < 1 || outputBits > 64) {
            throw new IllegalArgumentException("hash " + name + ": output bits " + outputBits + " outside 1..64");
        }
        this.id = id;
        this.name = name;
        this.algorithm = algorithm;
        this.inputs = inputs.toArray(new Field[0]);
        this.partners = partners == null ? null : checkedPartners(name, this.inputs, partners.clone());
        this.outputBits = outputBits;
        this.outputMask = outputBits == 64 ? -1L : (1L << outputBits) - 1;
        this.gress = gress;
        this.stage = stage;
        int[] slots = new int[this.inputs.length];
        int[] partnerSlots = new int[this.inputs.length];
        int[] bytes = new int[this.inputs.length];
        int total = 0;
        for (int i = 0; i < bytes.length; i++) {
            slots[i] = this.inputs[i].slot();
            partnerSlots[i] = this.partners == null || this.partners[i] < 0 ? -1 : this.inputs[this.partners[i]].slot();
            bytes[i] = (this.inputs[i].width() + 7) / 8;
            total += bytes[i];
        }
        // a CRC as one table lookup per input byte, wired as straight-line code for these inputs
        PositionalCrc positional = algorithm instanceof Crc crc && bytes.length > 0 && total <= PositionalCrc.MAX_BYTES
                ? new PositionalCrc(crc, bytes) : null;
        this.kernel = positional == null ? null : positional.kernel(slots, partnerSlots, outputMask);
    }

    /** This unit placed in {@code stage} (the same id, inputs and symmetric pairs). */
    public HashUnit inStage(int stage) {
        return new HashUnit(id, name, algorithm, List.of(inputs), outputBits, gress, stage, partners);
    }

    private static int[] checkedPartners(String name, Field[] inputs, int[] partners) {
        if (partners.length != inputs.length) {
            throw new IllegalArgumentException("hash " + name + ": " + partners.length + " partners for " + inputs.length + " inputs");
        }
        for (int i = 0; i < partners.length; i++) {
            int p = partners[i];
            if (p >= 0 && (p == i || p >= partners.length || partners[p] != i || inputs[p].width() != inputs[i].width())) {
                throw new IllegalArgumentException("hash " + name + ": input " + i + " and " + p
                        + " are not a symmetric pair (two distinct inputs of one width, partners of each other)");
            }
        }
        return partners;
    }

    /** Input i's value as the unit hashes it: the field, or the XOR of a symmetric pair. */
    private long input(long[] phv, int i) {
        long v = phv[inputs[i].slot()];
        return partners == null || partners[i] < 0 ? v : v ^ phv[inputs[partners[i]].slot()];
    }

    /** Computes the hash over the given PHV slot values (no allocation). */
    public long compute(long[] phv) {
        if (kernel != null) {
            return kernel.hash(phv);
        }
        if (algorithm instanceof Crc crc && partners == null) {
            return crc.overFields(phv, inputs) & outputMask;
        }
        HashAlgorithm a = algorithm;
        long s = a.init();
        for (int i = 0; i < inputs.length; i++) {
            Field f = inputs[i];
            long v = input(phv, i);
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

    /** Per input, the index of its symmetric partner or -1 (all -1 when the unit has no pair). */
    public int[] partners() {
        if (partners == null) {
            int[] none = new int[inputs.length];
            Arrays.fill(none, -1);
            return none;
        }
        return partners.clone();
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
