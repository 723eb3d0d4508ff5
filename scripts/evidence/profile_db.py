"""Reading a profile run's counters from a roofline database: the evidence scripts' one query of
profiled_values (docs/schema.md), by metric name."""


def launch_counters(db, launch_id):
    """Metric name -> value of one profiled launch (its id in profiled_launches / v_profile_launches)."""
    return dict(db.execute(
        "SELECT m.name, v.value FROM profiled_values v JOIN metrics m ON m.id = v.metric_id "
        "WHERE v.profiled_launch_id = ?", (launch_id,)).fetchall())
