package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.program.Signature;

import dev.rmtemu.traces.Addresses;

import java.util.Arrays;

/** A lost packet's signature as the collector decoded it, ordered by its words (unsigned). */
public final class LostPacket implements Comparable<LostPacket> {
    private final int[] words;

    public LostPacket(int[] words) {
        this.words = words.clone();
    }

    public int[] words() {
        return words.clone();
    }

    public int src() {
        return words[0];
    }

    public int dst() {
        return words[1];
    }

    public int srcPort() {
        return Signature.srcPort(words);
    }

    public int dstPort() {
        return Signature.dstPort(words);
    }

    public int proto() {
        return Signature.proto(words);
    }

    public int ipId() {
        return Signature.ipId(words);
    }

    public boolean syn() {
        return Signature.syn(words);
    }

    /** The 5-tuple as one comparable key (src, dst, proto, ports). */
    public String flow() {
        return Addresses.ipv4(src()) + ":" + srcPort() + ">" + Addresses.ipv4(dst()) + ":" + dstPort() + "/" + proto();
    }

    @Override
    public int compareTo(LostPacket o) {
        for (int i = 0; i < Math.min(words.length, o.words.length); i++) {
            int c = Integer.compareUnsigned(words[i], o.words[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(words.length, o.words.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LostPacket p && Arrays.equals(p.words, words);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(words);
    }

    @Override
    public String toString() {
        return flow() + " id=" + ipId() + (words.length > LossRadarConfig.BASE_WORDS ? " ts=" + words[LossRadarConfig.BASE_WORDS] : "");
    }
}
