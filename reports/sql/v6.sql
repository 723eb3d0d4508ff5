-- Thread block clusters (compute capability 9.0 and later): each profiled launch's cluster shape,
-- 0 x 0 x 0 where it ran without clusters (as ncu's launch__cluster_dim_x reads), for launches
-- stored before this version too.
ALTER TABLE profiled_launches ADD COLUMN cluster_x INTEGER NOT NULL DEFAULT 0;
ALTER TABLE profiled_launches ADD COLUMN cluster_y INTEGER NOT NULL DEFAULT 0;
ALTER TABLE profiled_launches ADD COLUMN cluster_z INTEGER NOT NULL DEFAULT 0;

DROP VIEW v_profile_launches;
CREATE VIEW v_profile_launches AS
SELECT p.run_id, p.id AS launch_id, p.seq, p.pid, p.process_seq, s.demangled AS kernel, s.mangled,
       p.grid_x * p.grid_y * p.grid_z AS grid, p.block_x * p.block_y * p.block_z AS block,
       p.grid_x, p.grid_y, p.grid_z, p.block_x, p.block_y, p.block_z, p.registers_per_thread AS registers,
       p.static_shared_bytes + p.dynamic_shared_bytes AS shared_bytes, p.static_shared_bytes,
       p.dynamic_shared_bytes, p.stream, p.context, p.device, p.graph_node, p.api,
       p.cluster_x * p.cluster_y * p.cluster_z AS cluster, p.cluster_x, p.cluster_y, p.cluster_z,
       p.analysis_duration_s * 1e6 AS duration_us, p.counter_status, p.passes, nullif(p.limiter, '') AS limiter,
       p.sol_s * 1e6 AS sol_us, p.lost_s * 1e6 AS lost_us, p.flops, p.dram_bytes, p.l2_bytes, p.ai_dram, p.ai_l2,
       p.flops_per_s, p.counter_note
FROM profiled_launches p JOIN kernel_symbols s ON s.id = p.symbol_id;
