local M = {}
M.__index = M

M.VERSION = "1.0"

local function clamp(x, lo, hi)
  return math.max(lo, math.min(hi, x))
end

function M.new(opts)
  return setmetatable({ opts = opts or {} }, M)
end

function M:draw(canvas)
  canvas:rect(0, 0, clamp(self.opts.w, 0, 100), 10)
end

return M
