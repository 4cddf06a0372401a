package org.atomicshards.cli.command;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code advise} found.
 *
 * @param database      the analysed database's URL without credentials
 * @param virtualShards the virtual shard count assumed by the hash prediction
 * @param ringNodes     the ring nodes per shard assumed by the consistent-hash prediction
 * @param candidates    per atomic unit, its declared key first, then the candidates asked for
 * @param tables        the entities outside every unit, with their verdict as reference data
 */
record Advice(String database, int virtualShards, int ringNodes, List<Candidate> candidates, List<Table> tables) {

    /**
     * One candidate shard key of one unit.
     *
     * @param unit          the root entity class name
     * @param key           the attribute path on the root ({@code id}, {@code country.code})
     * @param declared      whether this is the {@code @ShardKey} of the model
     * @param distinctKeys  how many units this key makes (distinct values holding rows)
     * @param rows          rows of the unit's entities that this key places (every member)
     * @param unplacedRows  rows it cannot place: a null candidate value, or members without their root
     * @param largestKey    the key of the largest unit
     * @param largestRows   the rows of the largest unit
     * @param predictions   per shard count, hash, range and consistent hash
     */
    record Candidate(String unit, String key, boolean declared, long distinctKeys, long rows, long unplacedRows,
                     String largestKey, long largestRows, List<Prediction> predictions) {

        double largestShare() {
            return rows == 0 ? 0 : (double) largestRows / rows;
        }

        /** A warning when the largest unit alone outweighs a fair share of N shards, else null. */
        String floorWarning(int shards) {
            if (largestShare() * shards <= 1.0) {
                return null;
            }
            return String.format(java.util.Locale.ROOT, "the largest unit (key %s) holds %.1f%% of the rows, more "
                    + "than 1/%d: no policy can even out %d shards while it is one unit; choose a finer key", largestKey,
                    100 * largestShare(), shards, shards);
        }
    }

    /**
     * @param referenceData whether the model marks it {@code @ReferenceData}
     * @param verdict       what to do with it
     */
    record Table(String entity, String table, long rows, boolean referenceData, String verdict) {
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("database", database);
        json.put("virtualShards", virtualShards);
        json.put("ringNodesPerShard", ringNodes);
        List<Object> list = new ArrayList<>();
        for (Candidate candidate : candidates) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("unit", candidate.unit());
            c.put("key", candidate.key());
            c.put("declared", candidate.declared());
            c.put("distinctKeys", candidate.distinctKeys());
            c.put("rows", candidate.rows());
            c.put("unplacedRows", candidate.unplacedRows());
            c.put("largestUnitKey", candidate.largestKey());
            c.put("largestUnitRows", candidate.largestRows());
            c.put("largestUnitShare", Math.round(candidate.largestShare() * 10_000d) / 10_000d);
            c.put("predictions", candidate.predictions().stream().map(Prediction::toJson).toList());
            c.put("warnings", candidate.predictions().stream().map(Prediction::shards).distinct()
                    .map(candidate::floorWarning).filter(w -> w != null).toList());
            list.add(c);
        }
        json.put("candidates", list);
        List<Object> tableList = new ArrayList<>();
        for (Table table : tables) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("entity", table.entity());
            t.put("table", table.table());
            t.put("rows", table.rows());
            t.put("referenceData", table.referenceData());
            t.put("verdict", table.verdict());
            tableList.add(t);
        }
        json.put("referenceData", tableList);
        return json;
    }
}
