package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.p4.ast.Annotation;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.phv.Field;

import java.util.Arrays;
import java.util.List;

/**
 * TNA's {@code @symmetric("hdr.ipv4.src_addr", "hdr.ipv4.dst_addr")} on a Hash: the two fields
 * of the pair hash the same when their values swap (both directions of a flow land alike).
 * The rules are bf-p4c's (mau/ixbar_expr.cpp, verifySymmetricHashPairs): two string literals
 * naming two distinct fields of the hash's field list, each field in at most one pair, the
 * two of one width, and a CRC algorithm. The hash itself is {@link HashUnit}'s.
 */
final class SymmetricPairs {
    private SymmetricPairs() {
    }

    /**
     * Per element of {@code list}, the index of its symmetric partner or -1; null when the
     * Hash has no {@code @symmetric} annotation.
     */
    static int[] of(String hash, List<Annotation> annotations, List<Expression> list, List<Field> inputs, String algorithm,
            boolean crc) {
        int[] partners = null;
        for (Annotation a : annotations) {
            if (!a.name().equals("symmetric")) {
                continue;
            }
            List<String> body = a.body();
            if (body.size() != 3 || !body.get(1).equals(",") || !quoted(body.get(0)) || !quoted(body.get(2))) {
                throw new Refusal(a.position(), "Hash " + hash + ": the symmetric annotation requires two string inputs"
                        + " (@symmetric(\"a\", \"b\"))");
            }
            String first = unquote(body.get(0));
            String second = unquote(body.get(2));
            if (first.equals(second)) {
                throw new Refusal(a.position(), "Hash " + hash + ": a field " + first + " cannot be symmetric to itself");
            }
            int i = indexOf(list, first);
            int j = indexOf(list, second);
            if (i < 0 || j < 0) {
                throw new Refusal(a.position(), "Hash " + hash + ": the key " + (i < 0 ? first : second)
                        + " in the symmetric annotation does not appear within the field list");
            }
            if (partners == null) {
                partners = new int[list.size()];
                Arrays.fill(partners, -1);
            }
            if (partners[i] >= 0 || partners[j] >= 0) {
                throw new Refusal(a.position(), "Hash " + hash + ": the key " + (partners[i] >= 0 ? first : second)
                        + " in the symmetric annotation has already been declared symmetric with another field");
            }
            if (inputs.get(i).width() != inputs.get(j).width()) {
                throw new Refusal(a.position(), "Hash " + hash + ": the two symmetric fields are not the same size ("
                        + first + " is " + inputs.get(i).width() + " bits, " + second + " is " + inputs.get(j).width() + ")");
            }
            partners[i] = j;
            partners[j] = i;
        }
        if (partners != null && !crc) {
            throw new Refusal(annotations.stream().filter(a -> a.name().equals("symmetric")).findFirst().orElseThrow().position(),
                    "Hash " + hash + ": symmetric hash is only supported with CRC algorithms, not " + algorithm);
        }
        return partners;
    }

    private static boolean quoted(String token) {
        return token.length() >= 2 && token.startsWith("\"") && token.endsWith("\"");
    }

    private static String unquote(String token) {
        return token.substring(1, token.length() - 1).strip();
    }

    private static int indexOf(List<Expression> list, String path) {
        for (int k = 0; k < list.size(); k++) {
            if (RegisterActionLowering.path(list.get(k)).equals(path)) {
                return k;
            }
        }
        return -1;
    }
}
