local function outer()
  local function inner()
    return 1
  end
  return inner()
end

local t = {
  method = function(self) return self end,
}
