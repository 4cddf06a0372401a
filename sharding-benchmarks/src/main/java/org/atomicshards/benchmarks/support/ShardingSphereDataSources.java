package org.atomicshards.benchmarks.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;

/**
 * Apache ShardingSphere-JDBC 5.5.2 over a set of shard databases, configured the way its documentation configures
 * database sharding of related tables on one key: one {@code !SHARDING} rule, the same table in every data source
 * ({@code actualDataNodes: ds_${0..n-1}.table}, no table strategy), an {@code INLINE} database strategy
 * {@code ds_${key % n}} on the customer id for {@code customers} and on the customer id column for
 * {@code purchase_orders}, and {@code max-connections-size-per-query: 1} (the default). The data sources are the
 * shards' own pools, passed in through {@link YamlShardingSphereDataSourceFactory#createDataSource(Map, byte[])},
 * so ShardingSphere sits on exactly the pools (and statement delays) the other sides use.
 */
public final class ShardingSphereDataSources {

    private ShardingSphereDataSources() {
    }

    /** Data-source name of shard {@code index}, as the rules YAML refers to it. */
    public static String dataSourceName(int index) {
        return "ds_" + index;
    }

    /**
     * @param shards the shard pools, in shard-index order; shard {@code i} holds the keys {@code k} with
     *               {@code k % shards.size() == i} (see {@link KeyPlacement#modulo(int)})
     */
    public static DataSource create(List<DataSource> shards) {
        Map<String, DataSource> dataSources = new LinkedHashMap<>();
        for (int i = 0; i < shards.size(); i++) {
            dataSources.put(dataSourceName(i), shards.get(i));
        }
        try {
            return YamlShardingSphereDataSourceFactory.createDataSource(dataSources,
                    rulesYaml(shards.size()).getBytes(StandardCharsets.UTF_8));
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("ShardingSphere did not start on " + shards.size() + " shards: " + e, e);
        }
    }

    /** Closes a data source made by {@link #create}, which closes ShardingSphere's executor and metadata. */
    public static void close(DataSource shardingSphere) {
        if (shardingSphere instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("ShardingSphere did not close: " + e, e);
            }
        }
    }

    /** The rules for {@code shardCount} data sources; ShardingSphere 5.5.2 YAML syntax. */
    static String rulesYaml(int shardCount) {
        String last = Integer.toString(shardCount - 1);
        String count = Integer.toString(shardCount);
        return """
                databaseName: benchmark_db
                rules:
                  - !SHARDING
                    tables:
                      customers:
                        actualDataNodes: ds_${0..LAST}.customers
                        databaseStrategy:
                          standard:
                            shardingColumn: id
                            shardingAlgorithmName: customers_by_id
                        tableStrategy:
                          none:
                      purchase_orders:
                        actualDataNodes: ds_${0..LAST}.purchase_orders
                        databaseStrategy:
                          standard:
                            shardingColumn: customer_id
                            shardingAlgorithmName: orders_by_customer
                        tableStrategy:
                          none:
                    shardingAlgorithms:
                      customers_by_id:
                        type: INLINE
                        props:
                          algorithm-expression: ds_${id % COUNT}
                      orders_by_customer:
                        type: INLINE
                        props:
                          algorithm-expression: ds_${customer_id % COUNT}
                props:
                  sql-show: false
                  max-connections-size-per-query: 1
                """.replace("LAST", last).replace("COUNT", count);
    }
}
