package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.lossradar.program.IbfDigest;

import java.util.Arrays;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Peeling decode of a difference digest (UM − DM). A cell is pure when its count
 * is ±1 and its xorSum hashes back to it in its own partition; its signature is
 * then one packet: it is reported (count +1: lost between the meters; −1: seen
 * only downstream) and removed from its k cells, which may make others pure.
 * Decoding is complete when every cell is zero. When it is not, the digest still
 * tells how many packets are in it ({@link IbfDigest#packets()}): the result
 * says "n losses counted, m decoded", never a signature that was not there.
 */
public final class IbfDecoder {
    private IbfDecoder() {
    }

    /** The outcome of one decode. */
    public record Result(List<LostPacket> lost, List<LostPacket> extra, long counted, boolean complete) {
        /** Signatures recovered. */
        public int decoded() {
            return lost.size();
        }

        public String summary() {
            return complete ? lost.size() + " losses decoded"
                    : counted + " losses counted, " + lost.size() + " decoded";
        }
    }

    /** Decodes {@code diff}; the digest is consumed (peeled in place). */
    public static Result peel(IbfDigest diff) {
        long counted = diff.packets();
        int cells = diff.cells();
        int words = diff.words();
        int perHash = diff.perHash();
        int[] stack = new int[cells * 2 + 16];
        int top = 0;
        for (int c = 0; c < cells; c++) {
            int n = diff.count(c);
            if (n == 1 || n == -1) {
                stack[top++] = c;
            }
        }
        int[] sig = new int[words];
        List<LostPacket> lost = new ArrayList<>();
        List<LostPacket> extra = new ArrayList<>();
        while (top > 0) {
            int c = stack[--top];
            int n = diff.count(c);
            if (n != 1 && n != -1) {
                continue;
            }
            for (int w = 0; w < words; w++) {
                sig[w] = diff.xorWord(c, w);
            }
            if (diff.cell(c / perHash, sig) != c) {
                continue; // count ±1 but several signatures: not pure
            }
            if (n == 1) {
                lost.add(new LostPacket(sig));
                diff.remove(sig);
            } else {
                extra.add(new LostPacket(sig));
                diff.insert(sig);
            }
            for (int j = 0; j < diff.hashes(); j++) {
                int d = diff.cell(j, sig);
                int m = diff.count(d);
                if (m == 1 || m == -1) {
                    if (top == stack.length) {
                        stack = Arrays.copyOf(stack, stack.length * 2);
                    }
                    stack[top++] = d;
                }
            }
        }
        Collections.sort(lost);
        Collections.sort(extra);
        return new Result(List.copyOf(lost), List.copyOf(extra), counted, diff.isEmpty());
    }
}
